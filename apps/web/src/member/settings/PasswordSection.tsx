import { MSG, PASSWORD_MIN_LENGTH } from "@enmusubi/shared";
import { Alert, Button, Card, Stack, Text, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { saveSession } from "../../lib/session";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { PasswordField } from "../../ui/PasswordField";

/**
 * パスワードの変更: the current password is required; the change ends every other session (the
 * server bumps the token version) and this one continues with the fresh token it answers.
 */
export function PasswordSection() {
  const trpc = useTRPC();
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [again, setAgain] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const update = useMutation(trpc.profile.update.mutationOptions());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    if (!current) return setError(MSG.currentPasswordRequired);
    if (next.length < PASSWORD_MIN_LENGTH) return setError(MSG.passwordTooShort);
    if (next !== again) return setError(MSG.passwordMismatch);
    setError(null);
    update.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: (result) => {
          if (result.token) saveSession({ token: result.token, role: "user" });
          setCurrent("");
          setNext("");
          setAgain("");
          setDone(true);
        },
        onError: (e) => setError(errorMessage(e, MSG.profileUpdateFailed)),
      },
    );
  };

  return (
    <Card withBorder component="section" aria-labelledby="settings-password-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4" id="settings-password-title">
            パスワードの変更
          </Title>
          <Text size="sm" c="dimmed">
            変更すると、この端末以外でログインしている端末はすべてログアウトされます。
          </Text>
          <PasswordField
            label="現在のパスワード"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            autoComplete="current-password"
            required
          />
          <PasswordField
            label="新しいパスワード"
            description={`${PASSWORD_MIN_LENGTH}文字以上`}
            value={next}
            onChange={(e) => setNext(e.currentTarget.value)}
            autoComplete="new-password"
            required
          />
          <PasswordField
            label="新しいパスワード（確認）"
            value={again}
            onChange={(e) => setAgain(e.currentTarget.value)}
            autoComplete="new-password"
            required
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {done && (
            <Alert color="green" role="status">
              {MSG.passwordChanged}
            </Alert>
          )}
          <Button type="submit" loading={update.isPending} w="fit-content">
            パスワードを変更
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
