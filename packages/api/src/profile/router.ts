import type { Db } from "@enmusubi/db";
import { photoUploadInput, profileUpdateInput } from "@enmusubi/shared";
import type { PhotoUrlSigner } from "../photos/signed-url";
import { screenProfileInput } from "../screening/profile";
import { authedProcedure, router } from "../trpc";
import { me, updateProfile, withOwnPhotoUrl } from "./service";

/**
 * The own profile with `photoUrl`: one's own full-size photo, signed and free (decision 0028); a
 * member's photo waiting for the review is theirs to see (decision 0044).
 */
const ownView = async (ctx: { db: Db; photoUrls: PhotoUrlSigner }, userId: string) =>
  withOwnPhotoUrl(ctx.photoUrls, await me(ctx.db, userId));

/** The signed-in account's own profile (member or administrator). */
export const profileRouter = router({
  me: authedProcedure.query(({ ctx }) => ownView(ctx, ctx.session.id)),
  /**
   * A member's new photo and changed 自己紹介 wait for the profile review (`submitted` says which;
   * decision 0044); the rest applies at once.
   */
  update: authedProcedure.input(profileUpdateInput).mutation(async ({ ctx, input }) => {
    // A member's name and 自己紹介 are screened first (decision 0042); an administrator's are not.
    const screened =
      ctx.session.role === "user"
        ? screenProfileInput(await ctx.screening.current(ctx.db), ctx.session.id, input)
        : input;
    const result = await updateProfile(ctx, ctx.session.id, screened);
    return { ...result, user: withOwnPhotoUrl(ctx.photoUrls, result.user) };
  }),
  /**
   * A new own photo on its own (the profile modal's staged photo); answers the updated account. A
   * member's waits for the review, as through `update`.
   */
  uploadPhoto: authedProcedure.input(photoUploadInput).mutation(async ({ ctx, input }) => {
    await updateProfile(ctx, ctx.session.id, { newPhoto: input.data });
    return ownView(ctx, ctx.session.id);
  }),
  /** Removes the own photo, and a new one waiting for the review (no review needed). */
  removePhoto: authedProcedure.mutation(async ({ ctx }) => {
    await updateProfile(ctx, ctx.session.id, { photoLink: null });
    return ownView(ctx, ctx.session.id);
  }),
});
