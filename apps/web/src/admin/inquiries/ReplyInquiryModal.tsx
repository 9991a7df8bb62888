import { INQUIRY_REPLY_MAX, MSG } from "@enmusubi/shared";
import { Button, Group, Modal, Paper, Stack, Text, Textarea } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { displayName } from "../../lib/display-name";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import type { Inquiry } from "./AdminInquiryCard";

const TEXT_STYLE = { whiteSpace: "pre-wrap", overflowWrap: "anywhere" } as const;

/** The reply dialog: the inquiry in short, the reply (counted against its limit); the member is told by mail. */
export function ReplyInquiryModal({ inquiry, onClose }: { inquiry: Inquiry | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reply, setReply] = useState("");
  useEffect(() => {
    if (inquiry) setReply("");
  }, [inquiry]);
  const send = useMutation(
    trpc.adminInquiries.reply.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.inquiryReplied });
        void queryClient.invalidateQueries({ queryKey: trpc.adminInquiries.list.pathKey() });
        onClose();
      },
      onError: (e) => notifications.show({ color: "red", message: errorMessage(e, MSG.inquiryReplyFailed) }),
    }),
  );
  const length = reply.trim().length;
  const tooLong = length > INQUIRY_REPLY_MAX;

  return (
    <Modal opened={inquiry !== null} onClose={onClose} title="お問い合わせへの返信" centered size="lg">
      {inquiry && (
        <Stack gap="sm">
          <Paper withBorder p="xs">
            <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
              {inquiry.title}
            </Text>
            <Text size="xs" c="dimmed">
              {displayName(inquiry.author)}（{inquiry.author.userID}） ・ {formatDateTime(inquiry.createdAt)}
            </Text>
            <Text size="sm" lineClamp={4} style={TEXT_STYLE}>
              {inquiry.message}
            </Text>
          </Paper>
          <Textarea
            label="返信内容"
            rows={6}
            value={reply}
            onChange={(e) => setReply(e.currentTarget.value)}
            description={`${length} / ${INQUIRY_REPLY_MAX}文字 ・ 送信すると会員にメールでお知らせします`}
            error={tooLong ? MSG.inquiryReplyTooLong : undefined}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              キャンセル
            </Button>
            <Button
              onClick={() => send.mutate({ id: inquiry.id, reply })}
              disabled={length === 0 || tooLong}
              loading={send.isPending}
            >
              返信を送信
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
