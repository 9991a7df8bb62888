import { MSG, photoData } from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { EXAMPLE_OWN_USER } from "./examples";
import { ownLegacyUser, toOwnLegacyUser } from "./legacy-shapes";

/**
 * The image may arrive as `photodatas` (a data URL or base64), as `photoLink.photodatas` (the
 * photoLink-as-object form of spec §3) or as `image`.
 */
const uploadBody = z
  .object({
    photodatas: photoData.optional(),
    photoLink: z.object({ photodatas: photoData }).optional(),
    image: photoData.optional(),
  })
  .transform((b) => ({ data: b.photodatas ?? b.photoLink?.photodatas ?? b.image }))
  .pipe(z.object({ data: photoData }));

export const photoRoutes = [
  route({
    method: "POST",
    path: "/api/photo-data/photo-data",
    summary:
      "Set the signed-in account's photo: checked to be an image, metadata stripped, ≤ 2048 px, JPEG 0.8; answers the user",
    description:
      "The image (a data URL or bare base64, at most 10 MB) may be sent as `photodatas`, `photoLink.photodatas` or `image`. A member's new photo waits for the operator's review (decision 0044): other members keep seeing the approved one (`photoLink`) until it is approved; the owner sees the new one as `photoUrl`, with `user.profileReview.photo` pending. An administrator's applies at once, and the photo it replaces is deleted.",
    access: "signedIn",
    input: uploadBody,
    response: z.object({
      message: z.string(),
      user: ownLegacyUser,
      photoLink: ownLegacyUser.shape.photoLink,
    }),
    example: { message: MSG.photoUpdated, user: EXAMPLE_OWN_USER, photoLink: EXAMPLE_OWN_USER.photoLink ?? null },
    errors: {
      400: [MSG.imageOnly, MSG.imageUnreadable, MSG.imageTooLarge],
      413: MSG.imageTooLarge,
      429: MSG.tooManyRequests,
    },
    handler: async (caller, input) => {
      const view = await caller.profile.uploadPhoto(input);
      const user = toOwnLegacyUser(view);
      const message = view.review.photo?.status === "pending" ? MSG.photoSubmittedForReview : MSG.photoUpdated;
      return { message, user, photoLink: user.photoLink };
    },
  }),
  route({
    method: "DELETE",
    path: "/api/photo-data/photo-data",
    summary:
      "Remove the signed-in account's photo and a new one waiting for the review (no review needed; the files are deleted); answers the user",
    access: "signedIn",
    response: z.object({ message: z.string(), user: ownLegacyUser, photoLink: z.null() }),
    example: {
      message: MSG.photoRemoved,
      user: { ...EXAMPLE_OWN_USER, photoLink: null, photoUrl: null },
      photoLink: null,
    },
    handler: async (caller) => {
      const user = await caller.profile.removePhoto();
      return { message: MSG.photoRemoved, user: toOwnLegacyUser(user), photoLink: null };
    },
  }),
];
