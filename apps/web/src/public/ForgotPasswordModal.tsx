import { MODAL_CLOSE_MS } from "@enmusubi/shared/constants";
import { MSG } from "@enmusubi/shared/messages";
import { Alert, Button, Group, Modal, Stack, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { errorMessage, useTRPC } from "../lib/trpc";

/**
 * Password reissue (spec §2, §5): opens with fade + scale, confirm is disabled until both fields
 * are non-empty after trimming, reads '送信中...' while sending and closes 300 ms after success.
 */
export function ForgotPasswordModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const [userID, setUserID] = useState("");
  const [email, setEmail] = useState("");
  const [error, setError] = useState<string | null>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const forgot = useMutation(trpc.auth.forgot.mutationOptions());
  const ready = userID.trim() !== "" && email.trim() !== "";

  useEffect(() => () => clearTimeout(closeTimer.current), []);

  const close = () => {
    setUserID("");
    setEmail("");
    setError(null);
    forgot.reset();
    onClose();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || forgot.isPending) return;
    setError(null);
    forgot.mutate(
      { userID: userID.trim(), email: email.trim() },
      {
        onSuccess: (result) => {
          notifications.show({ color: "green", message: result.message || MSG.forgotSent });
          closeTimer.current = setTimeout(close, MODAL_CLOSE_MS);
        },
        onError: (err) => setError(errorMessage(err, MSG.genericError)),
      },
    );
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title="パスワードの再発行"
      centered
      transitionProps={{ transition: "pop", duration: 200 }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label="ユーザーID"
            autoComplete="username"
            value={userID}
            onChange={(e) => setUserID(e.currentTarget.value)}
            data-autofocus
          />
          <TextInput
            label="メールアドレス"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
          {error && (
            <Alert color="red" variant="light" role="alert" p="xs">
              {error}
            </Alert>
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} type="button">
              キャンセル
            </Button>
            <Button type="submit" disabled={!ready || forgot.isPending}>
              {forgot.isPending ? "送信中..." : "確認"}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
