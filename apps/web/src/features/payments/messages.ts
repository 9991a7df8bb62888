import { MSG } from "@enmusubi/shared";

/**
 * The payment screens' messages: the catalogue's (spec §8 Purchase and admin alerts), plus the
 * success notices and the chart/report failures the catalogue has no entry for (ours).
 */
export const PAYMENT_TEXT = {
  fetchFailed: MSG.purchaseFetchFailed,
  createFailed: MSG.purchaseCreateFailed,
  transactionsFetchFailed: MSG.transactionsFetchFailed,
  confirmFailed: MSG.paymentConfirmFailed,
  cancelFailed: MSG.transactionCancelFailed,
  settingsFetchFailed: MSG.settingsFetchFailed,
  settingsSaveFailed: MSG.settingsSaveFailed,
  confirmed: "入金を確認し、ポイントを付与しました",
  cancelled: "取引をキャンセルしました",
  settingsSaved: "設定を保存しました",
  salesFetchFailed: "売上の取得に失敗しました",
  reportFetchFailed: "未使用残高の取得に失敗しました",
  noPaymentMethod: "現在ご利用いただける支払い方法がありません。",
  notificationsFetchFailed: "入金通知の取得に失敗しました",
  notificationResolved: "入金を処理済みにしました",
  notificationResolveFailed: "入金の処理に失敗しました",
} as const;
