import { photoUploadInput, profileUpdateInput } from "@enmusubi/shared";
import { setUserPhoto, uploadPhoto } from "../photos/service";
import { authedProcedure, router } from "../trpc";
import { me, updateProfile } from "./service";

/** The signed-in account's own profile (member or administrator). */
export const profileRouter = router({
  me: authedProcedure.query(({ ctx }) => me(ctx.db, ctx.session.id)),
  update: authedProcedure
    .input(profileUpdateInput)
    .mutation(({ ctx, input }) => updateProfile(ctx, ctx.session.id, input)),
  /** A new own photo on its own (the profile modal's staged photo); answers the updated account. */
  uploadPhoto: authedProcedure.input(photoUploadInput).mutation(async ({ ctx, input }) => {
    await uploadPhoto(ctx, { data: input.data, actorId: ctx.session.id, userId: ctx.session.id });
    return me(ctx.db, ctx.session.id);
  }),
  removePhoto: authedProcedure.mutation(async ({ ctx }) => {
    await setUserPhoto(ctx, ctx.session.id, null);
    return me(ctx.db, ctx.session.id);
  }),
});
