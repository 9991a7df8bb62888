import { adminPhotoUploadInput, photoUploadInput } from "@enmusubi/shared";
import { me } from "../auth/service";
import { adminProcedure, authedProcedure, router } from "../trpc";
import { setUserPhoto, uploadPhoto } from "./service";

export const photosRouter = router({
  /** The caller's own photo (member or administrator); answers the updated account. */
  upload: authedProcedure.input(photoUploadInput).mutation(async ({ ctx, input }) => {
    await uploadPhoto(ctx, { data: input.data, actorId: ctx.session.id, userId: ctx.session.id });
    return me(ctx.db, ctx.session.id);
  }),
  remove: authedProcedure.mutation(async ({ ctx }) => {
    await setUserPhoto(ctx, ctx.session.id, null);
    return me(ctx.db, ctx.session.id);
  }),
  /**
   * Administrator: store a photo for a member (`userId`) or, without one, only store it and answer
   * its link (the add-user draft and the edit modal put that link in the user's fields).
   */
  adminUpload: adminProcedure.input(adminPhotoUploadInput).mutation(async ({ ctx, input }) => {
    const photoLink = await uploadPhoto(ctx, {
      data: input.data,
      actorId: ctx.session.id,
      userId: input.userId,
      adminId: ctx.session.id,
    });
    return { photoLink };
  }),
});
