import { Badge, Modal, Table, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { formatDateTime } from "../../lib/format";
import { useTRPC } from "../../lib/trpc";
import type { AdminUser, LedgerEntry } from "./types";

const KIND_LABELS: Record<LedgerEntry["kind"], string> = {
  initial: "初期付与",
  charge: "利用",
  prepaid_charge: "前払い",
  purchase: "購入",
  admin_adjust: "管理者による変更",
  refund: "返還",
  expire: "有効期限切れ",
  forfeit: "退会による失効",
  purchase_reversal: "購入の返金",
  purchase_bonus: "購入ボーナス",
  signup_bonus: "登録特典（電話番号確認）",
  login_bonus: "ログインボーナス",
};

/** A member's balance history, newest first: when, what, from → to, and which admin did it. */
export function LedgerModal({ user, onClose }: { user: AdminUser | null; onClose(): void }) {
  const trpc = useTRPC();
  const ledger = useQuery({
    ...trpc.adminUsers.ledger.queryOptions({ id: user?.id ?? "", limit: 100 }),
    enabled: !!user,
  });
  return (
    <Modal opened={!!user} onClose={onClose} title={`ポイント履歴: ${user?.userID ?? ""}`} centered size="xl">
      {ledger.isLoading && <Text c="dimmed">読み込み中...</Text>}
      {ledger.isError && <Text c="red">ポイント履歴の取得に失敗しました。</Text>}
      {ledger.data && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped aria-label="ポイント履歴">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>日時</Table.Th>
                <Table.Th>種類</Table.Th>
                <Table.Th>内容</Table.Th>
                <Table.Th ta="right">変更前 → 変更後</Table.Th>
                <Table.Th>実行者</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {ledger.data.map((row) => (
                <Table.Tr key={row.id}>
                  <Table.Td>{formatDateTime(row.createdAt)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={row.account === "points" ? "pink" : "blue"}>
                      {row.account === "points" ? "ポイント" : "送信ポイント"}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {KIND_LABELS[row.kind]}
                    {row.actionName
                      ? `（${row.actionName}${row.quantity && row.quantity > 1 ? ` ×${row.quantity}` : ""}）`
                      : ""}
                  </Table.Td>
                  <Table.Td ta="right" data-testid="ledger-change">
                    {row.balanceBefore} → {row.balanceAfter}（{row.delta > 0 ? `+${row.delta}` : row.delta}）
                  </Table.Td>
                  <Table.Td>{row.actorUserID ? `${row.actorName ?? ""}（${row.actorUserID}）` : "—"}</Table.Td>
                </Table.Tr>
              ))}
              {ledger.data.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Text c="dimmed">履歴はありません。</Text>
                  </Table.Td>
                </Table.Tr>
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Modal>
  );
}
