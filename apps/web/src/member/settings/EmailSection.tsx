import { MSG } from "@enmusubi/shared";
import { Alert, Button, Card, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { PasswordField } from "../../ui/PasswordField";

/**
 * メールアドレスの変更: a confirmation link goes to the new address; the address changes only
 * when it is followed (within 24 hours), and the old address is told.
 */
export function EmailSection() {
  const trpc = useTRPC();
  const me = useQuery(trpc.profile.me.queryOptions());
  const [newEmail, setNewEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const request = useMutation(trpc.account.requestEmailChange.mutationOptions());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSent(null);
    if (!newEmail.trim()) return setError(MSG.emailRequired);
    if (!password) return setError(MSG.currentPasswordRequired);
    setError(null);
    request.mutate(
      { newEmail, currentPassword: password },
      {
        onSuccess: (result) => {
          setSent(result.message);
          setPassword("");
        },
        onError: (e) => setError(errorMessage(e, MSG.genericError)),
      },
    );
  };

  return (
    <Card withBorder component="section" aria-labelledby="settings-email-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={3} size="h4" id="settings-email-title">
            メールアドレスの変更
          </Title>
          <Text size="sm">現在のメールアドレス：{me.data?.email ?? "…"}</Text>
          <Text size="sm" c="dimmed">
            新しいアドレスに確認メールを送ります。メール内のリンクを24時間以内に開くと変更が完了し、これまでのアドレスにもお知らせします。
          </Text>
          <TextInput
            label="新しいメールアドレス"
            type="email"
            value={newEmail}
            onChange={(e) => setNewEmail(e.currentTarget.value)}
            autoComplete="email"
            required
          />
          <PasswordField
            label="現在のパスワード"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            autoComplete="current-password"
            required
          />
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          {sent && (
            <Alert color="green" role="status">
              {sent}
            </Alert>
          )}
          <Button type="submit" loading={request.isPending} w="fit-content">
            確認メールを送る
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
