import { MSG } from "@enmusubi/shared";
import { confirmAction } from "../../lib/confirm";
import { errorMessage } from "../../lib/trpc";

/** A staged photo choice: undefined = unchanged, null = remove, a data URL = upload. */
export type StagedPhoto = string | null | undefined;

/** Thrown when the user chose not to save the rest after a photo failure; not an error to show. */
export class PhotoChangeCancelled extends Error {
  constructor() {
    super("photo change cancelled");
  }
}

/**
 * Applies a staged photo before the rest of a profile is saved (member and admin profile). If
 * the upload or removal fails, the user is asked whether to save the other changes anyway (spec §8
 * Profile); declining throws PhotoChangeCancelled.
 */
export async function applyPhotoChange(
  photo: StagedPhoto,
  actions: { upload(data: string): Promise<unknown>; remove(): Promise<unknown> },
): Promise<void> {
  if (photo === undefined) return;
  try {
    if (photo) await actions.upload(photo);
    else await actions.remove();
  } catch (error) {
    const title = photo ? MSG.photoUploadFailed : MSG.photoRemoveFailed;
    const goOn = await confirmAction({
      title,
      message: `${errorMessage(error, `${title}。`)} ${MSG.photoContinueQuestion}`,
      confirmLabel: MSG.photoContinueLabel,
      danger: false,
    });
    if (!goOn) throw new PhotoChangeCancelled();
  }
}
