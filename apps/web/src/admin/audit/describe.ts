/** Japanese names of the actions the services write (the raw name is shown beside it). */
const ACTION_LABELS: Record<string, string> = {
  "user.create": "ユーザー作成",
  "user.update": "ユーザー更新",
  "user.delete": "ユーザー削除",
  "user.export": "会員CSV出力",
  "user.photo": "ユーザー写真変更",
  "user.suspend": "利用停止",
  "user.unsuspend": "利用停止の解除",
  "occupation.create": "職業追加",
  "occupation.delete": "職業削除",
  "annual_income.create": "年収範囲追加",
  "annual_income.delete": "年収範囲削除",
  "point_cost.create": "ポイント設定追加",
  "point_cost.update": "ポイント設定更新",
  "point_cost.delete": "ポイント設定削除",
  "message.send": "メッセージ送信",
  "message.update": "メッセージ編集",
  "message.delete": "メッセージ削除",
  "scheduled.cancel": "予約送信の取消",
  "board.create": "掲示板投稿",
  "board.delete": "掲示板投稿の削除",
  "payment.confirm": "入金確認",
  "payment.cancel": "取引取消",
  "payment.notification_resolve": "未付与入金の処理（返金・処理済み）",
  "inquiry.mark_read": "お問い合わせ既読",
  "inquiry.reply": "お問い合わせ返信",
  "report.dismiss": "通報の却下",
  "report.suspend": "通報による利用停止",
  "verification.approve": "年齢確認の承認",
  "verification.reject": "年齢確認の否認",
  "profile_review.approve": "プロフィール変更の承認",
  "profile_review.reject": "プロフィール変更の却下",
};

export function describeAction(action: string): string {
  return ACTION_LABELS[action] ?? action;
}

const show = (value: unknown): string =>
  value === null || value === undefined ? "なし" : typeof value === "string" ? value : JSON.stringify(value);

/**
 * The details as written, one line per field: `before` / `after` pairs as 「項目: 前 → 後」, any
 * other field as 「項目: 値」.
 */
export function describeDetails(details: Record<string, unknown>): string[] {
  const { before, after, ...rest } = details;
  const lines: string[] = [];
  const b = before && typeof before === "object" ? (before as Record<string, unknown>) : undefined;
  const a = after && typeof after === "object" ? (after as Record<string, unknown>) : undefined;
  if (b || a) {
    for (const key of new Set([...Object.keys(b ?? {}), ...Object.keys(a ?? {})])) {
      lines.push(`${key}: ${show(b?.[key])} → ${show(a?.[key])}`);
    }
  } else if (before !== undefined || after !== undefined) {
    lines.push(`${show(before)} → ${show(after)}`);
  }
  for (const [key, value] of Object.entries(rest)) lines.push(`${key}: ${show(value)}`);
  return lines.length > 0 ? lines : ["—"];
}
