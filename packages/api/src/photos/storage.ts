import { randomBytes } from "node:crypto";
import { mkdir, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { IMAGE_JPEG_QUALITY, IMAGE_MAX_BYTES, IMAGE_MAX_SIDE, MSG } from "@enmusubi/shared";
import { AppError } from "../errors";

/**
 * Photos on local disk under `uploadsDir/photos`, served at `/uploads/photos/<name>.jpg`. Every
 * image is decoded and re-encoded: orientation applied, at most 2048 × 2048, JPEG quality 0.8,
 * and no metadata at all (EXIF, GPS, ICC, XMP): sharp writes none unless asked to. Names are 128
 * random bits, so a photo's address cannot be guessed.
 */

export const PHOTO_URL_PREFIX = "/uploads/photos/";
const NAME = /^[0-9a-f]{32}\.jpg$/;

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

/** Normalizes and writes the image; answers its public link. */
export async function savePhoto(uploadsDir: string, data: string): Promise<string> {
  const jpeg = await normalizeImage(decodePhotoData(data));
  const dir = path.join(uploadsDir, "photos");
  await mkdir(dir, { recursive: true });
  const name = `${randomBytes(16).toString("hex")}.jpg`;
  await writeFile(path.join(dir, name), jpeg, { flag: "wx" });
  return `${PHOTO_URL_PREFIX}${name}`;
}

/** The file behind a link, when the link names one of our stored photos. */
export function photoFile(uploadsDir: string, link: string | null | undefined): string | null {
  if (!link?.startsWith(PHOTO_URL_PREFIX)) return null;
  const name = link.slice(PHOTO_URL_PREFIX.length);
  return NAME.test(name) ? path.join(uploadsDir, "photos", name) : null;
}

export async function deletePhotoFile(uploadsDir: string, link: string | null | undefined): Promise<void> {
  const file = photoFile(uploadsDir, link);
  if (!file) return;
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}
