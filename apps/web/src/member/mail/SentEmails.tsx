import { MSG } from "@enmusubi/shared";
import { Badge, Button, Group, Stack, Title } from "@mantine/core";
import { useState } from "react";
import { type MemberMessage, MessageCard, MessageDetailModal } from "../../features/messages";
import { ConversationLink } from "../conversations/ConversationLink";
import { BulkSendDialog } from "./BulkSendDialog";
import { MailListStates, PartyFilter } from "./MailListStates";
import { partiesOf, useBox } from "./mailbox";

/** 送信メール (spec §2): recipient filter, read / unread marker, detail, bulk send. */
export function SentEmails() {
  const sent = useBox("sent");
  const [recipient, setRecipient] = useState<string | null>(null);
  const [detail, setDetail] = useState<MemberMessage | null>(null);
  const [bulk, setBulk] = useState(false);
  const all = sent.data?.messages ?? [];
  const shown = recipient ? all.filter((m) => m.to.id === recipient) : all;

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="sm">
        <Title order={2}>送信メール</Title>
        <Button onClick={() => setBulk(true)}>一括送信</Button>
      </Group>
      <PartyFilter
        label="宛先で絞り込み"
        parties={partiesOf(all, "to")}
        value={recipient}
        onChange={setRecipient}
        count={shown.length}
      />
      <MailListStates
        isLoading={sent.isLoading}
        isError={sent.isError}
        errorText={MSG.sentFetchFailed}
        onRetry={() => void sent.refetch()}
        isEmpty={shown.length === 0}
        emptyText={recipient ? "この宛先への送信メッセージはありません" : "送信済みのメッセージはありません"}
      >
        {shown.map((message) => (
          <MessageCard
            key={message.id}
            message={message}
            party={message.to}
            partyLabel="宛先"
            onOpen={() => setDetail(message)}
            actions={<ConversationLink party={message.to} />}
            status={
              <Badge size="xs" variant="light" color={message.isRead ? "gray" : "pink"} data-testid="read-marker">
                {message.isRead ? "既読" : "未読"}
              </Badge>
            }
          />
        ))}
      </MailListStates>
      <MessageDetailModal message={detail} onClose={() => setDetail(null)} />
      <BulkSendDialog opened={bulk} onClose={() => setBulk(false)} />
    </Stack>
  );
}
