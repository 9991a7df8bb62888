import { MSG } from "@enmusubi/shared";
import { Alert, Anchor, Container, Loader, Paper, Stack, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Link, useParams, useSearchParams } from "react-router-dom";
import { errorMessage, useTRPCClient } from "../lib/trpc";

/**
 * The one-time links mails carry (no login needed): a notice's stop link
 * (/notice-mail/stop) and an e-mail change's confirmation (/email-change/confirm). Opening the
 * page follows the link once (the script, not the mail scanner's fetch of the URL, does it) and
 * shows what the server said: done, already used, or a bad or expired link.
 */
const ACTIONS = {
  stop: { title: "メール受信通知の停止", mutation: "stopNotice" },
  confirm: { title: "メールアドレス変更の確認", mutation: "confirmEmailChange" },
} as const;

export default function LinkActionPage() {
  const { action } = useParams<{ action: string }>();
  const kind = action === "confirm" ? ACTIONS.confirm : ACTIONS.stop;
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const client = useTRPCClient();
  const follow = useMutation({
    mutationFn: async (input: { token: string }): Promise<{ message: string; alreadyUsed?: boolean }> =>
      kind.mutation === "stopNotice"
        ? client.account.stopNotice.mutate(input)
        : client.account.confirmEmailChange.mutate(input),
  });
  const started = useRef(false);
  useEffect(() => {
    document.title = `${kind.title} | 縁結び`;
    if (started.current) return;
    started.current = true;
    follow.mutate({ token });
  }, [follow.mutate, token, kind.title]);

  const ok = follow.data;
  return (
    <Container size="xs" py="xl" component="main">
      <Paper withBorder p="lg">
        <Stack gap="md">
          <Title order={1} size="h3">
            {kind.title}
          </Title>
          {follow.isPending && <Loader aria-label="処理中" />}
          {ok && (
            <Alert color={ok.alreadyUsed ? "yellow" : "green"} role="status">
              {ok.message}
            </Alert>
          )}
          {follow.isError && (
            <Alert color="red" role="alert">
              {errorMessage(follow.error, MSG.genericError)}
            </Alert>
          )}
          <Anchor component={Link} to="/login">
            ログイン画面へ
          </Anchor>
        </Stack>
      </Paper>
    </Container>
  );
}
