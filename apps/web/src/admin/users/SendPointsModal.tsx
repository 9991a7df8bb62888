import { MSG, sendPointsUpdateInput } from "@enmusubi/shared";
import { Modal, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { formatPoints } from "../../lib/format";
import { asNumber, validate } from "../../lib/forms";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";
import { PointsInput } from "../../ui/PointsInput";
import type { AdminUser } from "./types";

/** Send-points edit (spec §2 admin screen 1): sets a member's send points; the ledger records it. */
export function SendPointsModal({
  user,
  onClose,
  onSaved,
}: {
  user: AdminUser | null;
  onClose(): void;
  onSaved(): void;
}) {
  const trpc = useTRPC();
  const [value, setValue] = useState<number | string>(0);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setValue(user?.sendPoints ?? 0);
    setError(null);
  }, [user]);

  const save = useMutation(
    trpc.adminUsers.updateSendPoints.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.userUpdated });
        onSaved();
        onClose();
      },
      onError: (e) => setError(`${MSG.userUpdateFailedPrefix}${errorMessage(e, e.message)}`),
    }),
  );

  const submit = () => {
    if (!user) return;
    const result = validate(sendPointsUpdateInput, {
      id: user.id,
      sendPoints: asNumber(value),
    });
    if (!result.ok) return setError(result.errors.sendPoints ?? MSG.pointsInvalid);
    save.mutate(result.data);
  };

  return (
    <Modal opened={!!user} onClose={onClose} title="送信ポイントの編集" centered>
      <Stack>
        <Text size="sm">
          {user?.name ?? "未設定"}（{user?.userID}）の現在の送信ポイント: {formatPoints(user?.sendPoints ?? 0)}
        </Text>
        <PointsInput label="送信ポイント" value={value} onChange={setValue} data-autofocus />
        <FormActions
          error={error}
          onCancel={onClose}
          onSubmit={submit}
          submitLabel="保存する"
          loading={save.isPending}
        />
      </Stack>
    </Modal>
  );
}
