import { MSG, photoData } from "@enmusubi/shared";
import { z } from "zod";
import { route } from "./adapter";
import { legacyUser, toLegacyUser } from "./legacy-shapes";

/**
 * The image may arrive as `photodatas` (a data URL or base64), as `photoLink.photodatas` (the
 * photoLink-as-object form of spec §3) or as `image`.
 */
const uploadBody = z
  .object({
    photodatas: z.string().optional(),
    photoLink: z.object({ photodatas: z.string() }).optional(),
    image: z.string().optional(),
  })
  .transform((b) => ({ data: b.photodatas ?? b.photoLink?.photodatas ?? b.image }))
  .pipe(z.object({ data: photoData }));

export const photoRoutes = [
  route({
    method: "POST",
    path: "/api/photo-data/photo-data",
    summary:
      "Set the signed-in account's photo: checked to be an image, metadata stripped, ≤ 2048 px, JPEG 0.8; answers the user",
    auth: true,
    input: uploadBody,
    response: z.object({ message: z.string(), user: legacyUser, photoLink: z.string().nullable() }),
    handler: async (caller, input) => {
      const user = await caller.photos.upload(input);
      return { message: MSG.photoUpdated, user: toLegacyUser(user), photoLink: user.photoLink };
    },
  }),
  route({
    method: "DELETE",
    path: "/api/photo-data/photo-data",
    summary: "Remove the signed-in account's photo (its file is deleted); answers the user",
    auth: true,
    response: z.object({ message: z.string(), user: legacyUser, photoLink: z.null() }),
    handler: async (caller) => {
      const user = await caller.photos.remove();
      return { message: MSG.photoRemoved, user: toLegacyUser(user), photoLink: null };
    },
  }),
];
