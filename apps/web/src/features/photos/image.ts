import { IMAGE_JPEG_QUALITY, IMAGE_MAX_SIDE, MSG } from "@enmusubi/shared";

/**
 * Browser-side image handling (spec §5, §9): every photo is shrunk to fit 2048 × 2048 and
 * re-encoded as JPEG at quality 0.8 before upload. The server does the same again (and strips
 * metadata), so this step only saves bandwidth and gives early, friendly errors.
 */

export class ImageError extends Error {}

export const CAMERA_MESSAGES = {
  accessFailed: "カメラへのアクセスに失敗しました",
  resolutionTooHigh: `カメラの解像度が高すぎます。${IMAGE_MAX_SIDE}×${IMAGE_MAX_SIDE}以下のカメラを使用してください。`,
  processingFailed: "写真の処理に失敗しました。もう一度お試しください。",
  imageProcessingFailed: "画像の処理に失敗しました。別のファイルをお試しください。",
  fileReadFailed: "ファイルの読み込みに失敗しました。",
} as const;

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
  if (!context) throw new ImageError(CAMERA_MESSAGES.imageProcessingFailed);
  context.fillStyle = "#fff";
  context.fillRect(0, 0, size.width, size.height);
  context.drawImage(source, 0, 0, size.width, size.height);
  return canvas.toDataURL("image/jpeg", IMAGE_JPEG_QUALITY);
}

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new ImageError(CAMERA_MESSAGES.imageProcessingFailed));
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
  if (!width || !height) throw new ImageError(CAMERA_MESSAGES.processingFailed);
  if (width > IMAGE_MAX_SIDE || height > IMAGE_MAX_SIDE) throw new ImageError(CAMERA_MESSAGES.resolutionTooHigh);
  return drawToJpeg(video, width, height);
}
