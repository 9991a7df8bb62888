import { z } from "zod";
import { IMAGE_MAX_BYTES } from "../constants/index";
import { MSG } from "../messages";
import { uuid } from "./ids";
import { text } from "./text";

/** Longest base64 text an image of IMAGE_MAX_BYTES encodes to, plus room for a data-URL prefix. */
const MAX_ENCODED = Math.ceil(IMAGE_MAX_BYTES / 3) * 4 + 100;

/**
 * An image as a data URL (`data:image/jpeg;base64,…`, what a browser canvas or FileReader gives)
 * or bare base64. The server decodes and checks the bytes themselves; the declared type is ignored.
 */
export const photoData = text({ required: MSG.imageOnly, max: MAX_ENCODED, tooLong: MSG.imageTooLarge, trim: false });

export const photoUploadInput = z.object({ data: photoData });
export type PhotoUploadInput = z.infer<typeof photoUploadInput>;

export const adminPhotoUploadInput = z.object({
  /** The member whose photo it becomes; left out, the photo is only stored (for a new user's draft). */
  userId: uuid(MSG.notFound).optional(),
  data: photoData,
});
