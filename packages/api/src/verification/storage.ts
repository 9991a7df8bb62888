import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { decodePhotoData, normalizeImage } from "../photos/storage";

/**
 * ID images live in DATA_DIR/private/id-images: a sibling of DATA_DIR/uploads (which the static
 * plugin serves), so no public path ever reaches them. They are read only by the administrators'
 * image row, and deleted at review or ID_IMAGE_RETENTION_HOURS after submission (decision 0006).
 */
const NAME = /^[0-9a-f]{32}\.jpg$/;

/** DATA_DIR/private/id-images, from the uploads directory the host configures (DATA_DIR/uploads). */
export function idImagesDir(uploadsDir: string): string {
  return path.join(path.dirname(path.resolve(uploadsDir)), "private", "id-images");
}

/**
 * Decodes, checks and cleans the image exactly like a profile photo (orientation applied, at most
 * 2048 px, JPEG, every metadata block dropped: EXIF/GPS of a phone photo never stays), then writes
 * it under a random name. Answers the file name (what the row stores).
 */
export async function saveIdImage(uploadsDir: string, data: string): Promise<string> {
  const jpeg = await normalizeImage(decodePhotoData(data));
  const dir = idImagesDir(uploadsDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const name = `${randomBytes(16).toString("hex")}.jpg`;
  await writeFile(path.join(dir, name), jpeg, { flag: "wx", mode: 0o600 });
  return name;
}

function fileOf(uploadsDir: string, name: string): string | null {
  return NAME.test(name) ? path.join(idImagesDir(uploadsDir), name) : null;
}

/** The image's bytes, or null when the file is gone. */
export async function readIdImage(uploadsDir: string, name: string): Promise<Buffer | null> {
  const file = fileOf(uploadsDir, name);
  if (!file) return null;
  return readFile(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return null;
    throw error;
  });
}

export async function deleteIdImage(uploadsDir: string, name: string | null | undefined): Promise<void> {
  const file = name ? fileOf(uploadsDir, name) : null;
  if (!file) return;
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}

/**
 * Deletes every file in the directory written before `cutoff`, whatever row it belongs to (or none:
 * a submission whose transaction failed after the file was written). Answers how many.
 */
export async function deleteIdImagesOlderThan(uploadsDir: string, cutoff: Date): Promise<number> {
  const dir = idImagesDir(uploadsDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info?.isFile() && info.mtimeMs < cutoff.getTime()) {
      await unlink(path.join(dir, name)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
      removed += 1;
    }
  }
  return removed;
}
