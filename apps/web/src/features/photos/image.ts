import { IMAGE_JPEG_QUALITY, IMAGE_MAX_SIDE, MSG } from "@enmusubi/shared";

/**
 * Browser-side image handling (spec §5, §9): every photo is shrunk to fit 2048 × 2048 and
 * re-encoded as JPEG at quality 0.8 before upload. The server does the same again (and strips
 * metadata), so this step only saves bandwidth and gives early, friendly errors.
 */

export class ImageError extends Error {}

function fitInside(width: number, height: number, max = IMAGE_MAX_SIDE) {
  const scale = Math.min(1, max / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function drawToJpeg(source: CanvasImageSource, width: number, height: number): string {
  const size = fitInside(width, height);
  const canvas = document.createElement("canvas");
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext("2d");
  if (!context) throw new ImageError(MSG.imageProcessingFailed);
  context.fillStyle = "#fff";
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(source, 0, 0, size.width, size.height);
  return canvas.toDataURL("image/jpeg", IMAGE_JPEG_QUALITY);
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new ImageError(MSG.imageProcessingFailed));
    image.src = url;
  });
}

/** A chosen file → a downscaled JPEG data URL. Only image files are accepted (spec §5). */
export async function fileToJpeg(file: File): Promise<string> {
  if (!file.type.startsWith("image/")) throw new ImageError(MSG.imageOnly);
  const url = URL.createObjectURL(file);
  try {
    const image = await loadImage(url);
    return drawToJpeg(image, image.naturalWidth, image.naturalHeight);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The current camera frame → JPEG data URL; a camera above 2048 × 2048 is refused (spec §5). */
export function captureFrame(video: HTMLVideoElement): string {
  const { videoWidth: width, videoHeight: height } = video;
  if (!width || !height) throw new ImageError(MSG.photoProcessingFailed);
  if (width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE) throw new ImageError(MSG.cameraResolutionTooHigh);
  return drawToJpeg(video, width, height);
}
