import type { Db } from "@enmusubi/db";
import { photoUploadInput, profileUpdateInput } from "@enmusubi/shared";
import { setUserPhoto, uploadPhoto } from "../photos/service";
import type { PhotoUrlSigner } from "../photos/signed-url";
import { screenProfileInput } from "../screening/profile";
import { authedProcedure, router } from "../trpc";
import { withPhotoUrl } from "../users/user-view";
import { me, updateProfile } from "./service";

/** The own profile with `photoUrl`: one's own full-size photo, signed and free (decision 0028). */
const ownView = async (ctx: { db: Db; photoUrls: PhotoUrlSigner }, userId: string) =>
  withPhotoUrl(ctx.photoUrls, await me(ctx.db, userId));

/** The signed-in account's own profile (member or administrator). */
export const profileRouter = router({
  me: authedProcedure.query(({ ctx }) => ownView(ctx, ctx.session.id)),
  update: authedProcedure.input(profileUpdateInput).mutation(async ({ ctx, input }) => {
    // A member's name and 自己紹介 are screened first (decision 0042); an administrator's are not.
    const screened =
      ctx.session.role === "user"
        ? screenProfileInput(await ctx.screening.current(ctx.db), ctx.session.id, input)
        : input;
    const result = await updateProfile(ctx, ctx.session.id, screened);
    return { ...result, user: withPhotoUrl(ctx.photoUrls, result.user) };
  }),
  /** A new own photo on its own (the profile modal's staged photo); answers the updated account. */
  uploadPhoto: authedProcedure.input(photoUploadInput).mutation(async ({ ctx, input }) => {
    await uploadPhoto(ctx, { data: input.data, actorId: ctx.session.id, userId: ctx.session.id });
    return ownView(ctx, ctx.session.id);
  }),
  removePhoto: authedProcedure.mutation(async ({ ctx }) => {
    await setUserPhoto(ctx, ctx.session.id, null);
    return ownView(ctx, ctx.session.id);
  }),
});
