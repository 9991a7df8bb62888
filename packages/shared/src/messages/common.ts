/** Messages every domain may answer with (transport, roles, bad input). Ours unless marked. */
export const COMMON_MSG = {
  genericError: "エラーが発生しました",
  genericErrorDot: "エラーが発生しました。",
  unauthorized: "ログインが必要です。もう一度ログインしてください。",
  forbidden: "この操作を行う権限がありません。",
  notFound: "対象が見つかりません。",
  tooManyRequests: "試行回数が多すぎます。しばらくしてから再度お試しください。",
  badRequest: "入力内容に誤りがあります。",
  invalidJson: "リクエストの形式が正しくありません。",
  payloadTooLarge: "送信データが大きすぎます。",
  internalError: "サーバーでエラーが発生しました。しばらくしてから再度お試しください。",
} as const;
