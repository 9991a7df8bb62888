import { Avatar, Badge, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { formatDateTime } from "../../lib/format";
import { type AdminMessage, partyName } from "./types";

function Party({ label, party }: { label: string; party: AdminMessage["from"] }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Avatar src={party.photoLink} alt={partyName(party)} radius="xl" size="sm" color="pink">
        {partyName(party).slice(0, 1)}
      </Avatar>
      <Text size="sm">
        {label}: {partyName(party)}（{party.userID}）
        {party.role === "admin" && (
          <Badge ml={4} size="xs" color="grape" variant="light">
            管理者
          </Badge>
        )}
      </Text>
    </Group>
  );
}

/** One message in full (spec §2 admin 6, 7, 8 "detail"): body as text, parties, time and state. */
export function MessageDetailModal({ message, onClose }: { message: AdminMessage | null; onClose: () => void }) {
  return (
    <Modal opened={message !== null} onClose={onClose} title="メッセージの詳細" centered size="lg">
      {message && (
        <Stack gap="sm">
          <Party label="送信者" party={message.from} />
          <Party label="受信者" party={message.to} />
          <Text size="sm" c="dimmed">
            {formatDateTime(message.createdAt)}
          </Text>
          <Group gap={6}>
            <Badge variant="light" color={message.isRead || message.hasReply ? "gray" : "pink"}>
              {message.isRead || message.hasReply ? "既読" : "未読"}
            </Badge>
            {message.hasReply && (
              <Badge variant="light" color="teal">
                返信済み
              </Badge>
            )}
            {message.sentByAdmin && (
              <Badge variant="light" color="grape">
                代理送信: {message.sentByAdmin.name ?? "管理者"}
              </Badge>
            )}
          </Group>
          <Text
            size="sm"
            style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}
            p="sm"
            bg="var(--mantine-color-gray-0)"
            data-testid="message-detail-body"
          >
            {message.body}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              閉じる
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
