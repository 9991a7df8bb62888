import { bulkSent, MSG } from "@enmusubi/shared";
import { Alert, Button, Checkbox, Group, Loader, ScrollArea, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ComposeDialog, partyName } from "../../features/messages";
import { formatPoints } from "../../lib/format";
import { useTRPC } from "../../lib/trpc";
import { SendLockNotice, useSendLock } from "../verification/useSendLock";
import { costFor, useSendMail } from "./useSend";

/**
 * 一括送信 (spec §2 sent screen): recipients chosen from the people the member exchanged messages
 * with (select all / clear all), textarea, emoji picker. Costs send_message per member recipient,
 * confirmed first; success 「{n}人のユーザーにメッセージを送信しました」.
 */
export function BulkSendDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const sendLock = useSendLock();
  const contacts = useQuery({ ...trpc.messages.contacts.queryOptions(), enabled: opened });
  const { perMember, submit } = useSendMail();
  const [selected, setSelected] = useState<string[]>([]);
  useEffect(() => {
    if (opened) setSelected([]);
  }, [opened]);
  const people = [...(contacts.data ?? [])].sort((a, b) => (a.name ?? "").localeCompare(b.name ?? "", "ja"));
  const recipients = people.filter((p) => selected.includes(p.id));
  const cost = costFor(recipients, perMember);

  return (
    <ComposeDialog
      opened={opened}
      onClose={onClose}
      title="一括送信"
      allowSchedule={false}
      emojiSize="large"
      extraInvalid={sendLock ?? (recipients.length === 0 ? MSG.recipientsRequired : null)}
      costNote={
        recipients.length > 0
          ? `${recipients.length}人に送信${cost > 0 ? `（${formatPoints(cost)}が必要です）` : ""}`
          : undefined
      }
      onSubmit={(result) =>
        submit({
          recipients,
          result,
          source: "user:sent",
          successText: bulkSent(recipients.length),
          scheduledText: MSG.messageScheduled,
          failureText: MSG.bulkSendFailed,
        })
      }
    >
      {sendLock && <SendLockNotice />}
      {contacts.isLoading ? (
        <Group gap="xs" role="status">
          <Loader size="xs" aria-hidden />
          <Text size="sm">読み込み中...</Text>
        </Group>
      ) : contacts.isError ? (
        <Alert color="red" title="送信先の取得に失敗しました" role="alert">
          <Button size="xs" variant="white" color="red" mt="xs" onClick={() => void contacts.refetch()}>
            再試行
          </Button>
        </Alert>
      ) : people.length === 0 ? (
        <Text size="sm" c="dimmed">
          送信できる相手がいません（メッセージをやり取りした相手が表示されます）
        </Text>
      ) : (
        <Stack gap={6}>
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => setSelected(people.map((p) => p.id))}>
              すべて選択
            </Button>
            <Button size="xs" variant="default" onClick={() => setSelected([])}>
              すべて解除
            </Button>
            <Text size="sm" c="dimmed" aria-live="polite">
              {selected.length}人選択中
            </Text>
          </Group>
          <Checkbox.Group label="送信先" value={selected} onChange={setSelected}>
            <ScrollArea.Autosize mah={180} type="auto" mt={4}>
              <Stack gap={6} py={2}>
                {people.map((p) => (
                  <Checkbox
                    key={p.id}
                    value={p.id}
                    label={p.role === "admin" ? `${partyName(p)}（運営）` : partyName(p)}
                  />
                ))}
              </Stack>
            </ScrollArea.Autosize>
          </Checkbox.Group>
        </Stack>
      )}
    </ComposeDialog>
  );
}
