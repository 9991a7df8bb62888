import { MSG, pointCostAboveCap, pointCostUpdateInput } from "@enmusubi/shared";
import { Alert, Button, Group, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { asNumber, validate } from "../../lib/forms";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { AddPointCostModal } from "./AddPointCostModal";
import { LoginBonusSettings } from "./LoginBonusSettings";
import {
  CostRow,
  EditRow,
  LEGAL_NOTE_ID,
  NOWRAP,
  OFFERED_NOTE_ID,
  type PointCost,
  type RowDraft,
} from "./PointCostRows";

/**
 * Point cost management (spec §2 admin screen 5): the table with inline edit and delete (with
 * confirmation). The add dialog exists but, as the spec says, its button is hidden. The server
 * refuses a cost above the legal initial fee (shown as 上限) or below 0, and the deletion of a row
 * of the legal fee table: those rows offer no delete button, a 料金表 badge says why.
 */
export function PointCosts() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.reference.pointCosts.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.reference.pointCosts.list.queryKey() });
  const [editing, setEditing] = useState<string | null>(null);
  const [draft, setDraft] = useState<RowDraft>({ displayName: "", pointCost: 0, description: "" });
  const [rowError, setRowError] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);

  const update = useMutation(
    trpc.reference.pointCosts.update.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.pointCostUpdated });
        setEditing(null);
        void refresh();
      },
      onError: (e) => setRowError(errorMessage(e, MSG.pointCostUpdateFailed)),
    }),
  );
  const remove = useMutation(
    trpc.reference.pointCosts.delete.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.pointCostDeleted });
        void refresh();
      },
      onError: (e) => notifications.show({ color: "red", message: errorMessage(e, MSG.pointCostDeleteFailed) }),
    }),
  );

  const startEdit = (row: PointCost) => {
    setRowError(null);
    setEditing(row.actionName);
    setDraft({ displayName: row.displayName, pointCost: row.pointCost, description: row.description });
  };

  const saveEdit = (row: PointCost) => {
    const values = {
      actionName: row.actionName,
      displayName: draft.displayName,
      pointCost: asNumber(draft.pointCost),
      description: draft.description,
    };
    const result = validate(pointCostUpdateInput, values);
    if (!result.ok) return setRowError(Object.values(result.errors)[0] ?? MSG.pointCostUpdateFailed);
    if (values.pointCost > row.maxCost) {
      return setRowError(pointCostAboveCap(row.maxCost));
    }
    update.mutate(result.data);
  };

  const askDelete = async (row: PointCost) => {
    if (await confirmAction({ title: "ポイント設定の削除", message: `「${row.displayName}」を削除しますか？` })) {
      remove.mutate({ actionName: row.actionName });
    }
  };

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>ポイント設定</Title>
        {/* Spec §2 admin screen 5: the add dialog exists, its button is hidden. */}
        <Button onClick={() => setAdding(true)} style={{ display: "none" }} data-testid="add-point-cost">
          追加
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        各アクションの消費ポイントです。利用規約の料金表により、初期料金（上限）を超える設定はできません。
      </Text>
      <Text size="sm" c="dimmed" id={LEGAL_NOTE_ID}>
        「料金表」の項目：{MSG.legalPointCostNotDeletable}
      </Text>
      <Text size="sm" c="dimmed" id={OFFERED_NOTE_ID}>
        「課金中」は現在サービスで消費される項目で、会員の料金表・利用規約・特定商取引法に基づく表記に表示されます。「未提供」の項目は会員に表示されず、消費もされません。
      </Text>
      {list.isError && <Alert color="red">{MSG.pointCostFetchFailed}</Alert>}
      {rowError && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setRowError(null)}>
          {rowError}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={820}>
        <Table striped verticalSpacing="xs" aria-label="ポイント設定">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>アクション名</Table.Th>
              <Table.Th>表示名</Table.Th>
              <Table.Th ta="right" w={90} style={NOWRAP}>
                ポイント
              </Table.Th>
              <Table.Th ta="right" w={70} style={NOWRAP}>
                上限
              </Table.Th>
              <Table.Th>説明</Table.Th>
              <Table.Th w={160} style={NOWRAP}>
                操作
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data?.map((row) =>
              editing === row.actionName ? (
                <EditRow
                  key={row.actionName}
                  row={row}
                  draft={draft}
                  onChange={setDraft}
                  saving={update.isPending}
                  onSave={() => saveEdit(row)}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <CostRow
                  key={row.actionName}
                  row={row}
                  onEdit={() => startEdit(row)}
                  onDelete={() => void askDelete(row)}
                />
              ),
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <LoginBonusSettings />
      <AddPointCostModal opened={adding} onClose={() => setAdding(false)} onAdded={refresh} />
    </Stack>
  );
}
