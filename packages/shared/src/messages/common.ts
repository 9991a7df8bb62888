/** Messages every domain may answer with (transport, roles, bad input). Ours unless marked. */
export const COMMON_MSG = {
  genericError: "エラーが発生しました",
  genericErrorDot: "エラーが発生しました。",
  unauthorized: "ログインが必要です。もう一度ログインしてください。",
  forbidden: "この操作を行う権限がありません。",
  notFound: "対象が見つかりません。",
  tooManyRequests: "試行回数が多すぎます。しばらくしてから再度お試しください。",
  badRequest: "入力内容に誤りがあります。",
  /** A NUL character or a broken (lone surrogate) character in any text. */
  textInvalid: "使用できない文字が含まれています。",
  /** A day that is not a real calendar day (2025-02-31) or outside the years a list covers (schemas/values.ts). */
  dateInvalid: "日付の形式が正しくありません。",
  /** An instant that is not an ISO date and time, or outside the years a list covers (schemas/values.ts). */
  instantInvalid: "日時の形式が正しくありません。",
  /** A period whose end comes before its start. */
  dateRangeInvalid: "終了日は開始日以降にしてください。",
  /** A page past the deepest offset any list serves (page × rows per page). */
  pageTooLarge: "ページ番号が大きすぎます。",
  invalidJson: "リクエストの形式が正しくありません。",
  payloadTooLarge: "送信データが大きすぎます。",
  internalError: "サーバーでエラーが発生しました。しばらくしてから再度お試しください。",
  /** HTTP-level refusals (before any route runs): URL, headers, method, media type, timeout. */
  invalidUrl: "URLの形式が正しくありません。",
  uriTooLong: "URLが長すぎます。",
  headerTooLarge: "リクエストのURLまたはヘッダーが大きすぎます。",
  unsupportedMediaType: "対応していないデータ形式です。JSON形式で送信してください。",
  methodNotSupported: "対応していないリクエストメソッドです。",
  requestTimeout: "リクエストがタイムアウトしました。もう一度お試しください。",
  serviceUnavailable: "サーバーが一時的に利用できません。しばらくしてから再度お試しください。",
} as const;
