import { IMAGE_MAX_SIDE } from "../constants/index";

/** Camera capture and photo handling in the browser (spec §8 admin alerts and Profile; the rest ours). */
export const PHOTOS_MSG = {
  cameraAccessFailed: "カメラへのアクセスに失敗しました",
  cameraResolutionTooHigh: `カメラの解像度が高すぎます。${IMAGE_MAX_SIDE}×${IMAGE_MAX_SIDE}以下のカメラを使用してください。`,
  photoProcessingFailed: "写真の処理に失敗しました。もう一度お試しください。",
  imageProcessingFailed: "画像の処理に失敗しました。別のファイルをお試しください。",
  fileReadFailed: "ファイルの読み込みに失敗しました。",
  /** Spec §8 Profile: a failed photo upload or removal asks whether to save the rest. */
  photoUploadFailed: "写真のアップロードに失敗しました",
  photoRemoveFailed: "写真の削除に失敗しました",
  photoContinueQuestion: "写真以外の変更を保存しますか？",
  /** ours */
  photoContinueLabel: "保存を続ける",
  cameraStarting: "カメラを起動しています...",
} as const;
