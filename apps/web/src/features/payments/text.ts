import { MSG } from "@enmusubi/shared";

/**
 * The payment screens' text catalogue: the catalogue's (spec §8 Purchase and admin alerts), plus the
 * success notices and the chart/report failures the catalogue has no entry for (ours).
 */
export const PAYMENTS_TEXT = {
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
  noPaymentMethod: "現在ポイントはご購入いただけません。",
  noPaymentMethodReason: "ご利用いただける支払い方法がまだ設定されていません。",
  /** For the operator reading the member's screen: where a method is configured (the admin menu's name). */
  configureMethodHint:
    "運営者の方へ：管理画面の「決済設定」で支払い方法（スマートピットなど）を設定して有効にすると、この画面から購入できるようになります。",
  /** Card payment (decision 0046). */
  cardLabel: "クレジットカード",
  cardRecommended: "おすすめ：決済が完了するとすぐにポイントが付与されます（3Dセキュア対応）",
  cardDeadline: "このあと表示される決済ページで、すぐにお支払いください",
  cardCreditTiming: "決済の完了後ただちに付与します",
  cardOrder: "カード決済ページへ進む",
  cardRedirecting: "決済ページへ移動しています…",
  cardResultTitle: "カード決済の結果",
  cardResultPaid: "お支払いが完了し、ポイントを付与しました",
  cardResultWaiting: "決済結果を確認しています。このままお待ちください…",
  cardResultFailed: "カード決済は完了しませんでした。ポイントは付与されず、料金も発生しません。",
  cardResultRefunded: "このご注文は返金されました",
  cardResultSlow: "決済結果の確認に時間がかかっています。しばらくしてから購入履歴をご確認ください。",
  cardResultPoints: "付与ポイント",
  cardResultBonus: "ボーナスポイント",
  cardResultAmount: "お支払い金額",
  cardResultBalance: "現在の所持ポイント",
  cardResultBack: "ポイント購入へ戻る",
  notificationsFetchFailed: "入金通知の取得に失敗しました",
  notificationResolved: "入金を処理済みにしました",
  notificationResolveFailed: "入金の処理に失敗しました",
} as const;
