import { MSG } from "@enmusubi/shared";
import { Button, Group, Modal, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ComposeFields } from "./ComposeFields";
import type { AdminMessage } from "./types";

/** Correct a message's body (spec §2 admin 8 "edit popup"); update disabled while blank (spec §5). */
export function EditMessageModal({ message, onClose }: { message: AdminMessage | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [body, setBody] = useState("");
  useEffect(() => {
    if (message) setBody(message.body);
  }, [message]);
  const update = useMutation(
    trpc.adminMessages.update.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.messageUpdated });
        void queryClient.invalidateQueries({ queryKey: trpc.adminMessages.pathKey() });
        onClose();
      },
      onError: (error) => notifications.show({ color: "red", message: errorMessage(error, MSG.messageUpdateFailed) }),
    }),
  );
  return (
    <Modal opened={message !== null} onClose={onClose} title="メッセージを編集" centered size="lg">
      {message && (
        <Stack gap="sm">
          <ComposeFields label="内容" body={body} onBody={setBody} autoFocus />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              キャンセル
            </Button>
            <Button
              onClick={() => update.mutate({ id: message.id, body })}
              disabled={!body.trim()}
              loading={update.isPending}
            >
              更新
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
