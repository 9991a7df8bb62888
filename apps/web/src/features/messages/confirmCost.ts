import { confirmAction } from "../../lib/confirm";

/**
 * The paid-action confirmation (spec §5): shows the cost in points and asks whether to continue.
 * Skipped (true) when the action is free.
 */
export function confirmCost(cost: number, what = "メッセージの送信"): Promise<boolean> {
  if (cost <= 0) return Promise.resolve(true);
  return confirmAction({
    title: "ポイントの消費",
    message: `${what}には${cost.toLocaleString("ja-JP")}ptが必要です。続けますか？`,
    confirmLabel: "続ける",
    danger: false,
  });
}
