import { Alert, Stack, Table, Text, Title } from "@mantine/core";
import { formatDateTime } from "../../lib/format";
import { Barcode } from "./Barcode";
import { pointsText, yen } from "./calc";
import { METHOD_LABELS } from "./StatusBadge";
import { CREDIT_TIMING } from "./terms";
import type { Transaction } from "./types";

function Rows({ rows }: { rows: [string, string, string?][] }) {
  return (
    <Table variant="vertical" withTableBorder layout="fixed">
      <Table.Tbody>
        {rows.map(([label, value, testId]) => (
          <Table.Tr key={label}>
            <Table.Th w={{ base: 110, sm: 160 }}>{label}</Table.Th>
            <Table.Td data-testid={testId} style={{ overflowWrap: "anywhere" }}>
              {value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * How to pay an order: the SmartPit payment code and its barcode (drawn here, spec §4 "a payment
 * code and barcode are shown"), or the bank account and the transfer name that identifies the
 * member's payment.
 */
export function PaymentInstructions({ transaction: t }: { transaction: Transaction }) {
  const order: [string, string, string?][] = [
    ["取引ID", t.transactionId, "purchase-transaction-id"],
    ["お支払い金額（税込）", yen(t.amount), "purchase-amount"],
    ["付与ポイント", pointsText(t.points), "purchase-points"],
    ["支払方法", METHOD_LABELS[t.paymentMethod]],
  ];
  if (t.paymentMethod === "smart_pit" && t.smartPit) {
    return (
      <Stack gap="md">
        <Rows
          rows={[
            ...order,
            ["支払番号", t.smartPit.paymentCode, "purchase-payment-code"],
            ["支払期限", formatDateTime(t.smartPit.expiresAt)],
          ]}
        />
        <Stack gap={4} align="center">
          <Title order={3} size="h5">
            コンビニのレジでこのバーコードをご提示ください
          </Title>
          <Barcode value={t.smartPit.barcodeValue} label={`支払番号 ${t.smartPit.paymentCode} のバーコード`} />
        </Stack>
        <Text size="sm">{CREDIT_TIMING}</Text>
      </Stack>
    );
  }
  if (t.paymentMethod === "bank_transfer" && t.bank) {
    return (
      <Stack gap="md">
        <Rows
          rows={[
            ...order,
            ["銀行名", t.bank.bankName],
            ["支店名", t.bank.bankBranchName],
            ["口座種別", t.bank.bankAccountType],
            ["口座番号", t.bank.bankAccountNumber],
            ["口座名義", t.bank.bankAccountName],
            ["振込名義", t.bank.transferName, "purchase-transfer-name"],
          ]}
        />
        <Alert color="blue" variant="light">
          振込名義は必ず上記のとおり入力してください。入金の確認に使います。{CREDIT_TIMING}
        </Alert>
      </Stack>
    );
  }
  return <Rows rows={order} />;
}
