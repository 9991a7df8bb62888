import { Button, TextInput } from "@mantine/core";
import { PhotoPicker } from "../../features/photos/PhotoPicker";
import type { AdminUser } from "./types";

/** The edit form, as opened from the user (the figures are what a balance change replaces). */
export interface Form {
  name: string;
  email: string;
  points: number | string;
  sendPoints: number | string;
  password: string;
  passwordConfirmation: string;
  photoLink: string;
  /** A new photo chosen here, uploaded on save. */
  newPhoto: string | null;
  /** The stored link as opened and its signed full-size URL (the link itself is not served, decision 0028). */
  stored: { link: string; url: string | null };
}

export const fromUser = (user: AdminUser): Form => ({
  name: user.name ?? "",
  email: user.email,
  points: user.points,
  sendPoints: user.sendPoints,
  password: "",
  passwordConfirmation: "",
  photoLink: user.photoLink ?? "",
  newPhoto: null,
  stored: { link: user.photoLink ?? "", url: user.photoUrl },
});

/** What the photo field shows: the signed URL of the stored photo, another stored photo's thumbnail, or the link typed. */
function previewOf(form: Form): string | null {
  if (form.newPhoto) return form.newPhoto;
  if (!form.photoLink) return null;
  if (form.photoLink === form.stored.link) return form.stored.url;
  return form.photoLink.replace(/^\/uploads\/photos\//, "/uploads/thumbs/");
}

/**
 * The photo: its link (cleared with ×, or emptied to remove the photo; locked while a new one is
 * chosen) and an upload area that downscales, uploaded on save.
 */
export function UserPhotoFields({
  form,
  error,
  set,
  onRemovePhoto,
}: {
  form: Form;
  error: string | undefined;
  set<K extends keyof Form>(key: K, value: Form[K]): void;
  onRemovePhoto(): void;
}) {
  return (
    <>
      <TextInput
        label="写真のURL（空にすると写真を削除します）"
        value={form.newPhoto ? "（新しい写真を保存時にアップロードします）" : form.photoLink}
        onChange={(e) => set("photoLink", e.currentTarget.value)}
        disabled={!!form.newPhoto}
        error={error}
        rightSection={
          form.photoLink && !form.newPhoto ? (
            <Button
              size="compact-xs"
              variant="subtle"
              onClick={() => set("photoLink", "")}
              aria-label="写真のURLをクリア"
            >
              ×
            </Button>
          ) : null
        }
      />
      <PhotoPicker
        label="写真をアップロード"
        current={previewOf(form)}
        onChange={(photo) => (photo ? set("newPhoto", photo) : onRemovePhoto())}
      />
    </>
  );
}
