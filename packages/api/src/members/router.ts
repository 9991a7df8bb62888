import { memberIdInput, memberSearchInput } from "@enmusubi/shared";
import { paidProcedure } from "../points/paid-procedure";
import { memberProcedure, router } from "../trpc";
import { photoPrice, viewPhoto } from "./photo-view";
import { searchMembers } from "./search";
import { addFavorite, listFavorites, listFootprints, removeFavorite, viewProfile } from "./service";
import { viewPrice } from "./view-price";

/** Members seen by members: always through the public profile shape. */
export const membersRouter = router({
  /** Profile search (spec §7 GET /api/users/search): members who can read, most recently active (or newest) first, paged. */
  search: memberProcedure
    .input(memberSearchInput)
    .query(({ ctx, input }) => searchMembers(ctx.db, ctx.session.id, input, new Date(), ctx.session.gender)),
  /** A profile's detail (with 自己紹介 and last activity): costs profile_view (free again within 24 hours). A mutation: it charges. */
  viewProfile: paidProcedure("profile_view")
    .input(memberIdInput)
    .mutation(({ ctx, input }) => viewProfile(ctx.db, ctx.charge, ctx.session.id, input.id)),
  /** What the next viewProfile of this member takes from my balance now, and why it is free (view-price.ts). */
  viewPrice: memberProcedure
    .input(memberIdInput)
    .query(({ ctx, input }) => viewPrice(ctx.db, ctx.session.id, input.id)),
  /**
   * The enlarged profile photo: costs profile_photo_view (free again within 24 hours, one's own
   * free); answers the full-size image's short-lived signed URL (photo-view.ts, decision 0028).
   */
  viewPhoto: paidProcedure("profile_photo_view")
    .input(memberIdInput)
    .mutation(({ ctx, input }) => viewPhoto(ctx.db, ctx.charge, ctx.photoUrls, ctx.session.id, input.id)),
  /** What the next viewPhoto of this member takes from my balance now, and whether there is a photo to enlarge. */
  photoPrice: memberProcedure
    .input(memberIdInput)
    .query(({ ctx, input }) => photoPrice(ctx.db, ctx.session.id, input.id)),
  footprints: memberProcedure.query(({ ctx }) => listFootprints(ctx.db, ctx.session.id)),
  /** My favourites, most recently added first. */
  favorites: memberProcedure.query(({ ctx }) => listFavorites(ctx.db, ctx.session.id)),
  addFavorite: memberProcedure
    .input(memberIdInput)
    .mutation(({ ctx, input }) => addFavorite(ctx.db, ctx.session.id, input.id)),
  removeFavorite: memberProcedure
    .input(memberIdInput)
    .mutation(({ ctx, input }) => removeFavorite(ctx.db, ctx.session.id, input.id)),
});
