import { Avatar, Badge, Button, Group, Stack, Table, Text } from "@mantine/core";
import { formatDateTime } from "../../lib/format";
import { EmptyTableRow } from "../../ui/EmptyTableRow";
import { type AdminMessage, type AdminMessageParty, partyName, UNREAD_ROW } from "./types";

/** What differs between 送信済み and 受信: the box, its title, the counterpart column, the scheduled source. */
export interface BoxConfig {
  box: "sent" | "inbox";
  title: string;
  counterpartLabel: string;
  source: "admin:sent" | "admin:inbox";
  counterpart: (m: AdminMessage) => AdminMessageParty;
}

/** In the admin inbox a message counts read if it is read or replied (spec §4). */
export const isRead = (m: AdminMessage) => m.isRead || m.hasReply;

/**
 * A box's list: the counterpart, the text, the time, 既読 / 未読 / 返信済み, and 詳細 (the inbox also
 * 返信 to a member's message not yet answered); unread rows stand out.
 */
export function BoxTable({
  config,
  messages,
  onDetail,
  onReply,
}: {
  config: BoxConfig;
  messages: AdminMessage[] | undefined;
  onDetail(message: AdminMessage): void;
  onReply(message: AdminMessage): void;
}) {
  return (
    <Table.ScrollContainer minWidth={680}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label={`${config.title}の一覧`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{config.counterpartLabel}</Table.Th>
            <Table.Th>内容</Table.Th>
            <Table.Th>日時</Table.Th>
            <Table.Th>状態</Table.Th>
            <Table.Th>操作</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {messages?.map((m) => {
            const who = config.counterpart(m);
            return (
              <Table.Tr
                key={m.id}
                data-message-id={m.id}
                data-unread={isRead(m) ? undefined : true}
                style={isRead(m) ? undefined : UNREAD_ROW}
              >
                <Table.Td maw={220}>
                  <Group gap={6} wrap="nowrap">
                    <Avatar src={who.photoLink} alt={partyName(who)} radius="xl" size="sm" color="pink">
                      {partyName(who).slice(0, 1)}
                    </Avatar>
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text size="sm" truncate>
                        {partyName(who)}
                      </Text>
                      <Text size="xs" c="dimmed" ff="monospace" truncate>
                        {who.userID}
                      </Text>
                    </Stack>
                  </Group>
                </Table.Td>
                <Table.Td maw={360}>
                  <Text size="sm" lineClamp={2} style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                    {m.body}
                  </Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(m.createdAt)}</Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Badge size="sm" variant="light" color={isRead(m) ? "gray" : "pink"}>
                      {isRead(m) ? "既読" : "未読"}
                    </Badge>
                    {m.hasReply && (
                      <Badge size="sm" variant="light" color="teal">
                        返信済み
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <Button size="compact-xs" variant="default" onClick={() => onDetail(m)}>
                      詳細
                    </Button>
                    {config.box === "inbox" && m.from.role === "user" && !m.hasReply && (
                      <Button size="compact-xs" variant="light" onClick={() => onReply(m)}>
                        返信
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
          {messages && messages.length === 0 && <EmptyTableRow colSpan={5}>メッセージはありません。</EmptyTableRow>}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
