import { ActionIcon, Avatar, Badge, Button, Group, Stack, Table, Text, Tooltip } from "@mantine/core";
import { formatDateTime } from "../../lib/format";
import { EmptyTableRow } from "../../ui/EmptyTableRow";
import type { SendAsUserPair } from "./SendAsUserModal";
import { type AdminMessage, type AdminMessageParty, partyName, UNREAD_ROW } from "./types";

/** A party's avatar with the small button that writes as them to the other side (spec §2 admin 8). */
function PartyCell({
  party,
  other,
  onSendAs,
}: {
  party: AdminMessageParty;
  other: AdminMessageParty;
  onSendAs: (pair: SendAsUserPair) => void;
}) {
  const name = partyName(party);
  return (
    <Group gap={6} wrap="nowrap">
      <div style={{ position: "relative", flex: "none" }}>
        <Avatar src={party.photoLink} alt={name} radius="xl" size="md" color="pink">
          {name.slice(0, 1)}
        </Avatar>
        {party.role === "user" && (
          <Tooltip label={`${name}として送信`}>
            <ActionIcon
              size={20}
              radius="xl"
              variant="filled"
              onClick={() => onSendAs({ from: party, to: other })}
              aria-label={`${name}（${party.userID}）として${partyName(other)}に送信`}
              style={{ position: "absolute", right: -6, bottom: -6 }}
            >
              ✉
            </ActionIcon>
          </Tooltip>
        )}
      </div>
      <Stack gap={0} style={{ minWidth: 0 }}>
        <Text size="sm" truncate>
          {name}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace" truncate>
          {party.userID}
          {party.role === "admin" && "（管理者）"}
        </Text>
      </Stack>
    </Group>
  );
}

/**
 * メッセージ一覧: No., both parties (with send-as-user), the text with 未読 / 返信済み, the time, and
 * 詳細 / 編集 / 削除; unread rows stand out.
 */
export function MessageTable({
  messages,
  offset,
  onSendAs,
  onDetail,
  onEdit,
  onDelete,
  deletingId,
}: {
  messages: AdminMessage[] | undefined;
  /** How many messages the pages before this one hold (the No. column goes on from there). */
  offset: number;
  onSendAs(pair: SendAsUserPair): void;
  onDetail(message: AdminMessage): void;
  onEdit(message: AdminMessage): void;
  onDelete(message: AdminMessage): void;
  deletingId: string | undefined;
}) {
  return (
    <Table.ScrollContainer minWidth={860}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="メッセージ一覧">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={56}>No.</Table.Th>
            <Table.Th>送信者</Table.Th>
            <Table.Th>受信者</Table.Th>
            <Table.Th>内容</Table.Th>
            <Table.Th>日時</Table.Th>
            <Table.Th>操作</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {messages?.map((m, i) => (
            <Table.Tr
              key={m.id}
              data-message-id={m.id}
              data-unread={m.isRead || m.hasReply ? undefined : true}
              style={m.isRead || m.hasReply ? undefined : UNREAD_ROW}
            >
              <Table.Td>{offset + i + 1}</Table.Td>
              <Table.Td maw={200}>
                <PartyCell party={m.from} other={m.to} onSendAs={onSendAs} />
              </Table.Td>
              <Table.Td maw={200}>
                <PartyCell party={m.to} other={m.from} onSendAs={onSendAs} />
              </Table.Td>
              <Table.Td maw={320}>
                <Text size="sm" lineClamp={2} style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                  {m.body}
                </Text>
                <Group gap={4} mt={2}>
                  {!(m.isRead || m.hasReply) && (
                    <Badge size="xs" color="pink" variant="light">
                      未読
                    </Badge>
                  )}
                  {m.hasReply && (
                    <Badge size="xs" color="teal" variant="light">
                      返信済み
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(m.createdAt)}</Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-xs" variant="default" onClick={() => onDetail(m)}>
                    詳細
                  </Button>
                  <Button size="compact-xs" variant="light" onClick={() => onEdit(m)}>
                    編集
                  </Button>
                  <Button
                    size="compact-xs"
                    color="red"
                    variant="light"
                    onClick={() => onDelete(m)}
                    loading={deletingId === m.id}
                  >
                    削除
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
          {messages && messages.length === 0 && (
            <EmptyTableRow colSpan={6}>該当するメッセージはありません。</EmptyTableRow>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
