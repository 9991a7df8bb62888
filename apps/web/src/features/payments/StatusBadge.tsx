import type { PaymentMethod, TransactionStatus as Status } from "@enmusubi/shared";
import { Badge } from "@mantine/core";

export type TransactionStatus = Status;
export type PaymentMethodKey = PaymentMethod;

/** Spec §4: pending is displayed as 処理中. */
export const STATUS_LABELS: Record<TransactionStatus, string> = {
  pending: "処理中",
  paid: "支払済",
  cancelled: "キャンセル",
  failed: "失敗",
  refunded: "返金済",
};

/** Plain palette names: the theme darkens their light-variant text to 4.5:1. */
const STATUS_COLORS: Record<TransactionStatus, string> = {
  pending: "yellow",
  paid: "green",
  cancelled: "gray",
  failed: "red",
  refunded: "gray",
};

export const METHOD_LABELS: Record<PaymentMethodKey, string> = {
  smart_pit: "スマートピット（コンビニ払い）",
  bank_transfer: "銀行振込",
  card: "クレジットカード",
};

export function StatusBadge({ status }: { status: TransactionStatus }) {
  return (
    <Badge
      variant="light"
      color={STATUS_COLORS[status]}
      data-status={status}
      style={{ flexShrink: 0 }}
      styles={{ root: { minWidth: "fit-content" }, label: { overflow: "visible" } }}
    >
      {STATUS_LABELS[status]}
    </Badge>
  );
}
