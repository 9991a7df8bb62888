import { adminPhotoUploadInput } from "@enmusubi/shared";
import { adminProcedure, router } from "../trpc";
import { uploadPhoto } from "./service";
import { fullSizeUrl } from "./signed-url";

export const photosRouter = router({
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
    // The draft's preview: the full-size image, signed (administrators see it free, decision 0028).
    return { photoLink, photoUrl: fullSizeUrl(ctx.photoUrls, photoLink) };
  }),
});
