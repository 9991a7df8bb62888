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
