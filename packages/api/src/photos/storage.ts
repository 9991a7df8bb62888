import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { IMAGE_JPEG_QUALITY, IMAGE_MAX_BYTES, IMAGE_MAX_SIDE, MSG, THUMBNAIL_MAX_SIDE } from "@enmusubi/shared";
import { AppError } from "../errors";

/**
 * Photos on local disk under `uploadsDir/photos` (full size) and `uploadsDir/thumbs` (the card
 * thumbnail, same name). Every image is decoded and re-encoded: orientation applied, at most
 * 2048 × 2048, JPEG quality 0.8, and no metadata at all (EXIF, GPS, ICC, XMP): sharp writes none
 * unless asked to. Names are 128 random bits, so a photo's address cannot be guessed.
 *
 * A stored link (`users.photo_link`) is the full-size path `/uploads/photos/<name>.jpg`; it is an
 * identifier, no longer a public address (decision 0028): the server serves it only with a short-
 * lived signature (signed-url.ts). Members see `/uploads/thumbs/<name>.jpg` (public), made at upload;
 * a photo stored before thumbnails existed gets its thumbnail on the first request for it.
 */

export const PHOTO_URL_PREFIX = "/uploads/photos/";
export const THUMB_URL_PREFIX = "/uploads/thumbs/";
export const PHOTO_NAME = /^[0-9a-f]{32}\.jpg$/;
const NAME = PHOTO_NAME;

/** Decoding bombs: refuse anything above 100 megapixels before decoding it. */
const MAX_INPUT_PIXELS = 100_000_000;

/** `data:image/…;base64,XXXX` or bare base64 → bytes. */
export function decodePhotoData(data: string): Buffer {
  const match = /^data:[^;,]*(;[^,]*)?,/.exec(data);
  const base64 = match ? data.slice(match[0].length) : data;
  const bytes = Buffer.from(base64.replace(/\s+/g, ""), "base64");
  if (bytes.length === 0) throw new AppError("BAD_REQUEST", MSG.imageOnly);
  if (bytes.length > IMAGE_MAX_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", MSG.imageTooLarge);
  return bytes;
}

/** sharp (libvips, some 20 MB per process) is loaded by the first photo, not by every process at start. */
const loadSharp = () => import("sharp").then((module) => module.default);

export async function normalizeImage(bytes: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  let format: string | undefined;
  try {
    format = (await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata()).format;
  } catch {
    throw new AppError("BAD_REQUEST", MSG.imageOnly);
  }
  if (!format || !["jpeg", "png", "webp", "gif", "avif", "heif", "tiff"].includes(format)) {
    throw new AppError("BAD_REQUEST", MSG.imageOnly);
  }
  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" })
      .rotate()
      .resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: Math.round(IMAGE_JPEG_QUALITY * 100) })
      .toBuffer();
  } catch {
    throw new AppError("BAD_REQUEST", MSG.imageUnreadable);
  }
}

/** The card thumbnail of a stored (already normalized) photo: at most THUMBNAIL_MAX_SIDE px, JPEG. */
async function thumbnailOf(jpeg: Buffer): Promise<Buffer> {
  const sharp = await loadSharp();
  return sharp(jpeg, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize({ width: THUMBNAIL_MAX_SIDE, height: THUMBNAIL_MAX_SIDE, fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: Math.round(IMAGE_JPEG_QUALITY * 100) })
    .toBuffer();
}

/** Writes through a temporary name and renames: a reader never sees half a file. */
async function writeWhole(file: string, bytes: Buffer): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString("hex")}.tmp`;
  await writeFile(temporary, bytes, { flag: "wx" });
  await rename(temporary, file);
}

/** Normalizes and writes the image and its thumbnail; answers its stored link (the full-size path). */
export async function savePhoto(uploadsDir: string, data: string): Promise<string> {
  const jpeg = await normalizeImage(decodePhotoData(data));
  const thumb = await thumbnailOf(jpeg);
  await mkdir(path.join(uploadsDir, "photos"), { recursive: true });
  await mkdir(path.join(uploadsDir, "thumbs"), { recursive: true });
  const name = `${randomBytes(16).toString("hex")}.jpg`;
  // The thumbnail first: a stored link always has its thumbnail.
  await writeWhole(path.join(uploadsDir, "thumbs", name), thumb);
  await writeFile(path.join(uploadsDir, "photos", name), jpeg, { flag: "wx" });
  return `${PHOTO_URL_PREFIX}${name}`;
}

/** The stored file name (`<32 hex>.jpg`) of a link to one of our photos, else null. */
export function photoName(link: string | null | undefined): string | null {
  if (!link?.startsWith(PHOTO_URL_PREFIX)) return null;
  const name = link.slice(PHOTO_URL_PREFIX.length);
  return NAME.test(name) ? name : null;
}

/**
 * What a member sees of a photo link (the public profile shape, board authors, mail senders): the
 * thumbnail of a stored photo. An outside http(s) link (set by an administrator; we hold no copy)
 * is shown as it is; it cannot be enlarged (decision 0028).
 */
export function thumbnailLink(link: string | null | undefined): string | null {
  if (!link) return null;
  const name = photoName(link);
  if (name) return `${THUMB_URL_PREFIX}${name}`;
  return link.startsWith("/uploads/") ? null : link;
}

/** The file behind a link, when the link names one of our stored photos. */
export function photoFile(uploadsDir: string, link: string | null | undefined): string | null {
  const name = photoName(link);
  return name ? path.join(uploadsDir, "photos", name) : null;
}

/**
 * The thumbnail file of a stored photo `name`, made now from the full-size file when it is missing
 * (photos stored before thumbnails existed). Null when there is no such photo.
 */
export async function ensureThumbnail(uploadsDir: string, name: string): Promise<string | null> {
  if (!NAME.test(name)) return null;
  const file = path.join(uploadsDir, "thumbs", name);
  try {
    await stat(file);
    return file;
  } catch {}
  let original: Buffer;
  try {
    original = await readFile(path.join(uploadsDir, "photos", name));
  } catch {
    return null;
  }
  let thumb: Buffer;
  try {
    thumb = await thumbnailOf(original);
  } catch {
    return null;
  }
  await mkdir(path.dirname(file), { recursive: true });
  await writeWhole(file, thumb);
  return file;
}

const unlinkQuietly = (file: string) =>
  unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });

/** Deletes a stored photo and its thumbnail. */
export async function deletePhotoFile(uploadsDir: string, link: string | null | undefined): Promise<void> {
  const name = photoName(link);
  if (!name) return;
  await unlinkQuietly(path.join(uploadsDir, "photos", name));
  await unlinkQuietly(path.join(uploadsDir, "thumbs", name));
}
