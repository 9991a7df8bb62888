import { Badge } from "@mantine/core";

export type TransactionStatus = "pending" | "paid" | "cancelled" | "failed";
export type PaymentMethodKey = "smart_pit" | "bank_transfer";

/** Spec §4: pending is displayed as 処理中. */
export const STATUS_LABELS: Record<TransactionStatus, string> = {
  pending: "処理中",
  paid: "支払済",
  cancelled: "キャンセル",
  failed: "失敗",
};

/** Colours chosen for contrast against the light badge background (axe). */
const STATUS_COLORS: Record<TransactionStatus, string> = {
  pending: "yellow.9",
  paid: "green.9",
  cancelled: "gray.8",
  failed: "red.9",
};

export const METHOD_LABELS: Record<PaymentMethodKey, string> = {
  smart_pit: "スマートピット（コンビニ払い）",
  bank_transfer: "銀行振込",
};

export function StatusBadge({ status }: { status: TransactionStatus }) {
  return (
    <Badge variant="light" color={STATUS_COLORS[status]} data-status={status} style={{ whiteSpace: "nowrap" }}>
      {STATUS_LABELS[status]}
    </Badge>
  );
}
