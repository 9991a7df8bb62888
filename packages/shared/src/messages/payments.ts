/** Purchases, transactions and payment settings (spec §8 Purchase and admin alerts, §5; the rest ours). */
export const PAYMENTS_MSG = {
  purchaseFetchFailed: "データの取得に失敗しました",
  purchaseCreateFailed: "購入リクエストの作成に失敗しました",
  amountInvalid: "正しい金額を入力してください",
  transactionsFetchFailed: "取引履歴の取得に失敗しました",
  paymentConfirmFailed: "決済の確認に失敗しました",
  transactionCancelFailed: "取引のキャンセルに失敗しました",
  settingsFetchFailed: "設定の取得に失敗しました",
  settingsSaveFailed: "設定の保存に失敗しました",
  /** ours */
  paymentMethodInvalid: "支払い方法を選択してください。",
  paymentMethodUnavailable: "この支払い方法は現在ご利用いただけません。",
  exchangeInactive: "現在ポイントの購入を受け付けていません。",
  transactionAlreadyConfirmed: "この取引は既に確認済みです。",
  transactionNotPending: "処理中の取引のみ確認・キャンセルできます。",
  notificationRejected: "通知の署名を確認できませんでした。",
  notificationReplayed: "この通知は既に処理されています。",
  notificationAmountMismatch: "通知の金額が取引と一致しません。",
  exchangeAmountInvalid: "換金レートは1以上の整数で入力してください。",
  minimumPurchaseInvalid: "最低購入金額は100円以上の整数で入力してください。",
  maximumPurchaseInvalid: "最高購入金額は1,000円以上の整数で入力してください。",
  purchaseLimitsOrder: "最高購入金額は最低購入金額以上にしてください。",
  bankBalanceInvalid: "銀行振込残高は0以上の整数で入力してください。",
  settingTextTooLong: "入力は100文字以内で入力してください。",
  smartPitKeyRequired: "SmartPitを有効にするにはSmartPit IDとAPIキーを入力してください。",
  bankDetailsRequired: "銀行振込を有効にするには銀行名・支店名・口座番号・口座名義を入力してください。",
  orderPointsTooLarge: "1回のご注文で購入できるポイント数（100,000,000pt）を超えています。",
  pointCeilingExceeded:
    "保有ポイントと未払いのご注文の合計が上限（1,000,000,000pt）を超えるため、このご注文はお受けできません。",
  exchangeBoundExceeded:
    "最高購入金額で購入した場合の付与ポイントが上限（100,000,000pt）を超えます。換金レートまたは最高購入金額を見直してください。",
  creditWouldOverflow: "この取引のポイントを付与すると保有ポイントの上限を超えるため、入金を確認できません。",
  notificationAlreadyResolved: "この入金は既に処理済みです。",
  notificationNotUnsettled: "未処理の入金のみ処理済みにできます。",
  resolutionNoteTooLong: "メモは500文字以内で入力してください。",
  /** Card payment (decision 0046). */
  cardSettingsRequired:
    "クレジットカード決済を有効にするには加盟店ID・シークレットキー・決済ページURLを入力してください。",
  cardUrlInvalid: "決済ページURLは http:// または https:// で始まるURLを入力してください。",
  cardRefundNotPaid: "入金済みの取引のみ返金を受け付けます。",
  cardOrderNotCard: "クレジットカード決済の取引ではありません。",
} as const;

const yen = (value: number) => value.toLocaleString("ja-JP");

/** ours: amount below the configured minimum (spec §5 "input min/max from settings"). */
export function purchaseBelowMinimum(minimum: number): string {
  return `購入金額は${yen(minimum)}円以上で入力してください`;
}

/** ours: amount above the configured maximum. */
export function purchaseAboveMaximum(maximum: number): string {
  return `購入金額は${yen(maximum)}円以下で入力してください`;
}

/** The purchase confirmation (spec §5 "asks whether to buy N points for X yen"). */
export function purchaseConfirmation(points: number, amount: number): string {
  return `${yen(points)}ptを${yen(amount)}円で購入しますか？`;
}
