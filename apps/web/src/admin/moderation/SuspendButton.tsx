import { SUSPEND_REASON_MAX } from "@enmusubi/shared";
import { Button, Modal, Stack, Text, Textarea } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";

/**
 * 利用停止 / 停止解除 for one member row of user management. The row's standing comes with the
 * page (`adminUsers.list` answers it for every row): a read per row, batched, passed the server's
 * URL limit on a full page and the buttons drew nothing (decision 0015). Suspending asks for a reason
 * (audited) and ends the member's sessions at once; reinstating asks for a confirmation. Either
 * refreshes the list.
 */
export function SuspendButton({
  user,
  size = "compact-xs",
}: {
  user: { id: string; userID: string; name: string | null; suspended: boolean };
  /** A phone's card uses a bigger button than the table's row. */
  size?: "compact-xs" | "xs";
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const suspend = useMutation(trpc.adminModeration.suspend.mutationOptions());
  const unsuspend = useMutation(trpc.adminModeration.unsuspend.mutationOptions());
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const label = `${user.name ?? user.userID}（${user.userID}）`;
  const suspended = user.suspended;
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.adminUsers.list.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.adminModeration.standing.pathKey() });
  };

  const submit = async () => {
    try {
      const result = await suspend.mutateAsync({ userId: user.id, reason });
      notifications.show({ color: "green", message: result.message });
      setOpen(false);
    } catch (e) {
      setError(errorMessage(e, "利用停止に失敗しました。"));
    } finally {
      refresh();
    }
  };

  const askUnsuspend = async () => {
    const ok = await confirmAction({
      title: "利用停止の解除",
      message: `${label}の利用停止を解除しますか？会員は再びログインできるようになります。`,
      confirmLabel: "解除する",
      danger: false,
    });
    if (!ok) return;
    try {
      const result = await unsuspend.mutateAsync({ userId: user.id });
      notifications.show({ color: "green", message: result.message });
    } catch (e) {
      notifications.show({ color: "red", message: errorMessage(e, "利用停止の解除に失敗しました。") });
    } finally {
      refresh();
    }
  };

  return (
    <>
      {suspended ? (
        <Button
          size={size}
          color="orange"
          variant="light"
          onClick={() => void askUnsuspend()}
          loading={unsuspend.isPending}
          aria-label={`${user.userID}の停止解除`}
        >
          停止解除
        </Button>
      ) : (
        <Button
          size={size}
          color="orange"
          variant="subtle"
          onClick={() => {
            setReason("");
            setError(null);
            setOpen(true);
          }}
          aria-label={`${user.userID}を利用停止`}
        >
          利用停止
        </Button>
      )}
      <Modal opened={open} onClose={() => setOpen(false)} title="会員の利用停止" centered>
        <Stack gap="sm">
          <Text size="sm">
            {label}
            を利用停止にします。すぐにログアウトされ、ログインできなくなります。予約中のメッセージは取り消されます。
          </Text>
          <Textarea
            label="利用停止の理由（記録されます）"
            withAsterisk
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            maxLength={SUSPEND_REASON_MAX}
            rows={3}
            resize="vertical"
          />
          <FormActions
            error={error}
            onCancel={() => setOpen(false)}
            onSubmit={() => void submit()}
            submitLabel="利用停止にする"
            loading={suspend.isPending}
          />
        </Stack>
      </Modal>
    </>
  );
}
