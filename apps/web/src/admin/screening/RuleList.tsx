import { Badge, Button, Card, Group, Stack, Table, Text } from "@mantine/core";
import { formatDateTime } from "../../lib/format";
import { EmptyTableRow } from "../../ui/EmptyTableRow";
import { SCREENING_TEXT } from "./text";
import { ACTION_COLORS, type ScreeningRule } from "./types";

export interface RuleHandlers {
  onEdit(rule: ScreeningRule): void;
  onDelete(rule: ScreeningRule): void;
  deletingId: string | undefined;
}

function Pattern({ rule }: { rule: ScreeningRule }) {
  return (
    <Text
      size="sm"
      fw={600}
      ff={rule.kind === "pattern" ? "monospace" : undefined}
      style={{ overflowWrap: "anywhere", wordBreak: "break-all" }}
      data-testid="rule-pattern"
    >
      {rule.pattern}
    </Text>
  );
}

function Flags({ rule }: { rule: ScreeningRule }) {
  return (
    <Group gap={4} wrap="wrap">
      <Badge size="sm" variant="light" color={ACTION_COLORS[rule.action]}>
        {SCREENING_TEXT.actions[rule.action]}
      </Badge>
      {!rule.enabled && (
        <Badge size="sm" variant="outline" color="gray">
          無効
        </Badge>
      )}
    </Group>
  );
}

function Actions({ rule, handlers }: { rule: ScreeningRule; handlers: RuleHandlers }) {
  return (
    <Group gap={4} wrap="wrap">
      <Button
        size="compact-sm"
        variant="light"
        onClick={() => handlers.onEdit(rule)}
        aria-label={`ルール「${rule.pattern}」を編集`}
      >
        編集
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        color="red"
        onClick={() => handlers.onDelete(rule)}
        loading={handlers.deletingId === rule.id}
        aria-label={`ルール「${rule.pattern}」を削除`}
      >
        削除
      </Button>
    </Group>
  );
}

/** The rules on a wide screen: one row each (word or pattern, kind, category, action, note, changed). */
export function RuleTable({ rules, handlers }: { rules: ScreeningRule[] | undefined; handlers: RuleHandlers }) {
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="検知ルール一覧">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>言葉・パターン</Table.Th>
            <Table.Th>種類</Table.Th>
            <Table.Th>分類</Table.Th>
            <Table.Th>対応</Table.Th>
            <Table.Th>メモ</Table.Th>
            <Table.Th>更新日時</Table.Th>
            <Table.Th>操作</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rules?.map((rule) => (
            <Table.Tr key={rule.id} data-testid="rule-row" data-rule={rule.pattern}>
              <Table.Td maw={280}>
                <Pattern rule={rule} />
              </Table.Td>
              <Table.Td>{SCREENING_TEXT.ruleKinds[rule.kind]}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{SCREENING_TEXT.categories[rule.category]}</Table.Td>
              <Table.Td>
                {/* Wide enough for 「保留（確認待ち）」 whole (a badge would shrink to 「保留（確認…」). */}
                <div style={{ minWidth: 140 }}>
                  <Flags rule={rule} />
                </div>
              </Table.Td>
              <Table.Td maw={240} style={{ overflowWrap: "anywhere" }}>
                <Text size="sm" c="dimmed">
                  {rule.note || "—"}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="xs" c="dimmed">
                  {formatDateTime(rule.updatedAt)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Actions rule={rule} handlers={handlers} />
              </Table.Td>
            </Table.Tr>
          ))}
          {rules && rules.length === 0 && <EmptyTableRow colSpan={7}>{SCREENING_TEXT.noRules}</EmptyTableRow>}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The rules on a phone: a card each, every field and button in view (no sideways scroll at 375 px). */
export function RuleCards({ rules, handlers }: { rules: ScreeningRule[] | undefined; handlers: RuleHandlers }) {
  if (rules && rules.length === 0)
    return (
      <Text c="dimmed" ta="center" py="md">
        {SCREENING_TEXT.noRules}
      </Text>
    );
  return (
    <Stack gap="xs" component="ul" aria-label="検知ルール一覧" p={0} m={0} style={{ listStyle: "none" }}>
      {rules?.map((rule) => (
        <Card key={rule.id} component="li" withBorder padding="sm" data-testid="rule-row" data-rule={rule.pattern}>
          <Stack gap={6}>
            <Pattern rule={rule} />
            <Group gap="xs" wrap="wrap">
              <Text size="xs" c="dimmed">
                {SCREENING_TEXT.ruleKinds[rule.kind]}・{SCREENING_TEXT.categories[rule.category]}
              </Text>
              <Flags rule={rule} />
            </Group>
            {rule.note && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                {rule.note}
              </Text>
            )}
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Text size="xs" c="dimmed">
                更新 {formatDateTime(rule.updatedAt)}
              </Text>
              <Actions rule={rule} handlers={handlers} />
            </Group>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
