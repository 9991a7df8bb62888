import { MSG, sendPointsUpdateInput } from "@enmusubi/shared";
import { Modal, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { displayName } from "../../lib/display-name";
import { formatPoints } from "../../lib/format";
import { asNumber, validate } from "../../lib/forms";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";
import { PointsInput } from "../../ui/PointsInput";
import { balanceConflict, balanceConflictText } from "./balance-conflict";
import type { AdminUser } from "./types";

/**
 * Send-points edit (spec §2 admin screen 1): sets a member's send points; the ledger records it.
 * The new figure goes with the one it replaces; when it moved meanwhile nothing is saved and the
 * current figure is shown to decide again.
 */
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
  /** The send points the administrator is looking at: the figure the edit replaces. */
  const [seen, setSeen] = useState(0);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setValue(user?.sendPoints ?? 0);
    setSeen(user?.sendPoints ?? 0);
    setError(null);
  }, [user]);

  const save = useMutation(
    trpc.adminUsers.updateSendPoints.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.userUpdated });
        onSaved();
        onClose();
      },
      onError: (e) => {
        const current = balanceConflict(e);
        if (!current) return setError(`${MSG.userUpdateFailedPrefix}${errorMessage(e, e.message)}`);
        setSeen(current.sendPoints);
        setValue(current.sendPoints);
        setError(balanceConflictText(current));
        onSaved();
      },
    }),
  );

  const submit = () => {
    if (!user) return;
    const result = validate(sendPointsUpdateInput, {
      id: user.id,
      sendPoints: asNumber(value),
      expectedSendPoints: seen,
    });
    if (!result.ok) return setError(result.errors.sendPoints ?? MSG.pointsInvalid);
    save.mutate(result.data);
  };

  return (
    <Modal opened={!!user} onClose={onClose} title="送信ポイントの編集" centered>
      <Stack>
        <Text size="sm">
          {displayName(user)}（{user?.userID}）の現在の送信ポイント: {formatPoints(seen)}
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
