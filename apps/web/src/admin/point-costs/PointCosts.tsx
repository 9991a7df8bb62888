import {
  DEFAULT_NEW_POINT_COST,
  MSG,
  POINT_COST_TABLE,
  pointCostAboveCap,
  pointCostCreateInput,
  pointCostUpdateInput,
} from "@enmusubi/shared";
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RouterOutputs } from "../../lib/api-types";
import { confirmAction } from "../../lib/confirm";
import { asNumber, type FieldErrors, validate } from "../../lib/forms";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";

type PointCost = RouterOutputs["reference"]["pointCosts"]["list"][number];

/**
 * Rows of the legal fee table: the server refuses to delete them (the terms name them). The list
 * reports their cap as `maxCost` but not where it comes from, so the rule's own source decides.
 */
const LEGAL_ACTIONS: ReadonlySet<string> = new Set(POINT_COST_TABLE.map((row) => row.actionName));
const LEGAL_NOTE_ID = "point-costs-legal-note";

/** Numbers and short headings stay on one line. */
const NOWRAP = { whiteSpace: "nowrap" } as const;

interface RowDraft {
  displayName: string;
  pointCost: number | string;
  description: string;
}

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
                <Table.Tr key={row.actionName} data-action={row.actionName}>
                  <Table.Td ff="monospace" fz="sm">
                    {row.actionName}
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      aria-label="表示名"
                      value={draft.displayName}
                      onChange={(e) => setDraft({ ...draft, displayName: e.currentTarget.value })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <NumberInput
                      size="xs"
                      aria-label="ポイント"
                      min={0}
                      max={row.maxCost}
                      clampBehavior="none"
                      allowDecimal={false}
                      value={draft.pointCost}
                      onChange={(v) => setDraft({ ...draft, pointCost: v })}
                      w={90}
                    />
                  </Table.Td>
                  <Table.Td ta="right" style={NOWRAP}>
                    {row.maxCost}
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      size="xs"
                      aria-label="説明"
                      value={draft.description}
                      onChange={(e) => setDraft({ ...draft, description: e.currentTarget.value })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button size="compact-xs" onClick={() => saveEdit(row)} loading={update.isPending}>
                        保存
                      </Button>
                      <Button size="compact-xs" variant="default" onClick={() => setEditing(null)}>
                        キャンセル
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ) : (
                <Table.Tr key={row.actionName} data-action={row.actionName}>
                  <Table.Td ff="monospace" fz="sm">
                    {row.actionName}
                  </Table.Td>
                  <Table.Td>{row.displayName}</Table.Td>
                  <Table.Td ta="right" fw={700} data-testid="point-cost-value" style={NOWRAP}>
                    {row.pointCost}
                  </Table.Td>
                  <Table.Td ta="right" c="dimmed" style={NOWRAP}>
                    {row.maxCost}
                  </Table.Td>
                  <Table.Td fz="sm">{row.description}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button size="compact-xs" variant="light" onClick={() => startEdit(row)}>
                        編集
                      </Button>
                      {LEGAL_ACTIONS.has(row.actionName) ? (
                        <Badge variant="light" color="gray" aria-describedby={LEGAL_NOTE_ID} style={NOWRAP}>
                          料金表
                        </Badge>
                      ) : (
                        <Button size="compact-xs" color="red" variant="light" onClick={() => void askDelete(row)}>
                          削除
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ),
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <AddPointCostModal opened={adding} onClose={() => setAdding(false)} onAdded={refresh} />
    </Stack>
  );
}

function AddPointCostModal({ opened, onClose, onAdded }: { opened: boolean; onClose(): void; onAdded(): void }) {
  const trpc = useTRPC();
  const [form, setForm] = useState({
    actionName: "",
    displayName: "",
    pointCost: DEFAULT_NEW_POINT_COST as number | string,
    description: "",
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const create = useMutation(
    trpc.reference.pointCosts.create.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.pointCostAdded });
        onAdded();
        onClose();
      },
      onError: (e) => setErrors({ _form: errorMessage(e, MSG.pointCostAddFailed) }),
    }),
  );
  const submit = () => {
    const result = validate(pointCostCreateInput, {
      ...form,
      pointCost: asNumber(form.pointCost),
    });
    if (!result.ok) return setErrors(result.errors);
    create.mutate(result.data);
  };
  return (
    <Modal opened={opened} onClose={onClose} title="ポイント設定の追加" centered>
      <Stack>
        <TextInput
          label="アクション名"
          placeholder="video_call"
          value={form.actionName}
          onChange={(e) => setForm({ ...form, actionName: e.currentTarget.value })}
          error={errors.actionName}
        />
        <TextInput
          label="表示名"
          value={form.displayName}
          onChange={(e) => setForm({ ...form, displayName: e.currentTarget.value })}
          error={errors.displayName}
        />
        <NumberInput
          label="ポイント"
          min={0}
          allowDecimal={false}
          value={form.pointCost}
          onChange={(v) => setForm({ ...form, pointCost: v })}
          error={errors.pointCost}
        />
        <Textarea
          label="説明"
          value={form.description}
          onChange={(e) => setForm({ ...form, description: e.currentTarget.value })}
          error={errors.description}
        />
        <FormActions
          error={errors._form}
          onCancel={onClose}
          onSubmit={submit}
          submitLabel="追加する"
          loading={create.isPending}
        />
      </Stack>
    </Modal>
  );
}
