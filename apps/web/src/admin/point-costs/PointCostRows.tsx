import { POINT_COST_TABLE } from "@enmusubi/shared";
import { Badge, Button, Group, NumberInput, Table, TextInput } from "@mantine/core";
import type { RouterOutputs } from "../../lib/api-types";

export type PointCost = RouterOutputs["reference"]["pointCosts"]["list"][number];

/**
 * Rows of the legal fee table: the server refuses to delete them (the terms name them). The list
 * reports their cap as `maxCost` but not where it comes from, so the rule's own source decides.
 */
const LEGAL_ACTIONS: ReadonlySet<string> = new Set(POINT_COST_TABLE.map((row) => row.actionName));
export const LEGAL_NOTE_ID = "point-costs-legal-note";
export const OFFERED_NOTE_ID = "point-costs-offered-note";

/** Numbers and short headings stay on one line. */
export const NOWRAP = { whiteSpace: "nowrap" } as const;

export interface RowDraft {
  displayName: string;
  pointCost: number | string;
  description: string;
}

/** A row being edited: name, cost (at most its cap) and description inline, 保存 / キャンセル. */
export function EditRow({
  row,
  draft,
  onChange,
  saving,
  onSave,
  onCancel,
}: {
  row: PointCost;
  draft: RowDraft;
  onChange(draft: RowDraft): void;
  saving: boolean;
  onSave(): void;
  onCancel(): void;
}) {
  return (
    <Table.Tr data-action={row.actionName}>
      <Table.Td ff="monospace" fz="sm">
        {row.actionName}
      </Table.Td>
      <Table.Td>
        <TextInput
          size="xs"
          aria-label="表示名"
          value={draft.displayName}
          onChange={(e) => onChange({ ...draft, displayName: e.currentTarget.value })}
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
          onChange={(v) => onChange({ ...draft, pointCost: v })}
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
          onChange={(e) => onChange({ ...draft, description: e.currentTarget.value })}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" onClick={onSave} loading={saving}>
            保存
          </Button>
          <Button size="compact-xs" variant="default" onClick={onCancel}>
            キャンセル
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** A row as shown: 編集, and 削除 unless the legal fee table names it (then a 料金表 badge). */
export function CostRow({ row, onEdit, onDelete }: { row: PointCost; onEdit(): void; onDelete(): void }) {
  return (
    <Table.Tr data-action={row.actionName}>
      <Table.Td ff="monospace" fz="sm">
        {row.actionName}
      </Table.Td>
      <Table.Td>
        <Group gap={6}>
          <span>{row.displayName}</span>
          <Badge
            variant="light"
            color={row.offered ? "teal" : "gray"}
            aria-describedby={OFFERED_NOTE_ID}
            style={{ ...NOWRAP, flexShrink: 0, overflow: "visible" }}
          >
            {row.offered ? "課金中" : "未提供"}
          </Badge>
        </Group>
      </Table.Td>
      <Table.Td ta="right" fw={700} data-testid="point-cost-value" style={NOWRAP}>
        {row.pointCost}
      </Table.Td>
      <Table.Td ta="right" c="dimmed" style={NOWRAP}>
        {row.maxCost}
      </Table.Td>
      <Table.Td fz="sm">{row.description}</Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button size="compact-xs" variant="light" onClick={onEdit}>
            編集
          </Button>
          {LEGAL_ACTIONS.has(row.actionName) ? (
            <Badge variant="light" color="gray" aria-describedby={LEGAL_NOTE_ID} style={NOWRAP}>
              料金表
            </Badge>
          ) : (
            <Button size="compact-xs" color="red" variant="light" onClick={onDelete}>
              削除
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
