import type { Gender } from "@enmusubi/shared/constants";
// Only the sign-in messages: the whole catalogue (MSG) would put every domain's texts in the /login entry.
import { AUTH_MSG } from "@enmusubi/shared/messages/auth";
import { Alert, Anchor, Box, Button, Container, Divider, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { type FormEvent, lazy, Suspense, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { Footer } from "../layout/Footer";
import { homeOf } from "../lib/session";
import { usePageTitle } from "../lib/usePageTitle";
import { PasswordField } from "../ui/PasswordField";
import classes from "./public.module.css";
import { useSupportAddress } from "./support-address";

const LOGIN_ERROR_ID = "login-error";

/**
 * Loaded when first opened, with the API providers it needs: the dialog, Mantine's Modal, tRPC and
 * TanStack Query all stay out of the /login entry (lib/api-providers.tsx).
 */
const ForgotPasswordModal = lazy(async () => {
  const [{ ForgotPasswordModal: Modal }, { ApiProviders }] = await Promise.all([
    import("./ForgotPasswordModal"),
    import("../lib/api-providers"),
  ]);
  return {
    default: (props: { opened: boolean; onClose: () => void }) => (
      <ApiProviders>
        <Modal {...props} />
      </ApiProviders>
    ),
  };
});

/** /login (spec §2 Public): user ID + PASS, forgot link, registration by gender, notices, footer. */
export function LoginPage() {
  usePageTitle("ログイン");
  const navigate = useNavigate();
  // A notice another screen leaves for the login screen (退会 done, decision 0034).
  const notice = (useLocation().state as { notice?: unknown } | null)?.notice;
  const [userID, setUserID] = useState("");
  const [password, setPassword] = useState("");
  const [forgotOpen, setForgotOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const supportAddress = useSupportAddress();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!userID.trim() || !password) {
      setError(AUTH_MSG.loginRequired);
      return;
    }
    setPending(true);
    void import("./sign-in")
      .then(({ signIn }) => signIn({ userID: userID.trim(), password }))
      .catch(() => ({ error: AUTH_MSG.loginFailed }))
      .then((result) => {
        setPending(false);
        if ("error" in result) setError(result.error);
        else navigate(homeOf(result.role), { replace: true });
      });
  };

  const register = (gender: Gender) => navigate("/signup", { state: { gender } });

  return (
    <Box className={classes.page}>
      <Container component="main" size={440} className={classes.container}>
        <Stack gap="lg">
          <Stack gap={4} align="center">
            <Title order={1} className={classes.brand}>
              縁結び
            </Title>
            <Text c="dimmed" size="sm">
              Enmusubi — 大人のためのポイント制マッチング
            </Text>
          </Stack>

          {typeof notice === "string" && (
            <Alert color="green" variant="light" role="status" data-testid="login-notice">
              {notice}
            </Alert>
          )}
          <Paper withBorder shadow="sm" p="lg" className={classes.card}>
            <form onSubmit={submit} noValidate>
              <Stack gap="sm">
                <Title order={2} size="h4">
                  ログイン
                </Title>
                {/* The error concerns both fields: each is marked invalid and points at it. */}
                <TextInput
                  label="ユーザーID"
                  autoComplete="username"
                  value={userID}
                  onChange={(e) => setUserID(e.currentTarget.value)}
                  required
                  error={!!error}
                  aria-errormessage={error ? LOGIN_ERROR_ID : undefined}
                />
                <PasswordField
                  label="パスワード"
                  autoComplete="current-password"
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                  required
                  error={!!error}
                  aria-errormessage={error ? LOGIN_ERROR_ID : undefined}
                />
                {error && (
                  <Alert id={LOGIN_ERROR_ID} color="red" variant="light" role="alert" p="xs">
                    {error}
                  </Alert>
                )}
                <Button type="submit" fullWidth disabled={pending}>
                  {pending ? "ログイン中..." : "ログイン"}
                </Button>
                <Anchor component="button" type="button" size="sm" onClick={() => setForgotOpen(true)}>
                  パスワードをお忘れの方はこちら
                </Anchor>
              </Stack>
            </form>
          </Paper>

          <Paper withBorder p="lg" className={classes.card}>
            <Stack gap="sm">
              <Title order={2} size="h4">
                新規会員登録（無料）
              </Title>
              <Text size="sm" c="dimmed">
                性別を選んで、メールアドレスだけで登録できます。
              </Text>
              <div className={classes.genderButtons}>
                <Button variant="light" color="blue" onClick={() => register("male")}>
                  男性
                </Button>
                <Button variant="light" color="pink" onClick={() => register("female")}>
                  女性
                </Button>
              </div>
            </Stack>
          </Paper>

          <Stack gap="xs">
            <Paper p="sm" bg="orange.0" radius="md">
              <Text size="sm" fw={700} c="orange">
                18歳未満の方はご利用いただけません
              </Text>
              <Text size="sm">
                18歳未満の方、および高校生の方は本サービスをご利用いただけません（
                <Anchor href="/legal/age-verification" size="sm">
                  年齢確認について
                </Anchor>
                ）。
              </Text>
            </Paper>
            <Paper p="sm" bg="gray.1" radius="md">
              <Text size="sm" fw={700}>
                旧ユーザーIDをお持ちの方へ
              </Text>
              <Text size="sm">
                以前のシステムで発行されたユーザーIDは現在ご利用いただけません。移行をご希望の方は
                {supportAddress ? (
                  <>
                    <Anchor href={`mailto:${supportAddress}`} size="sm" data-testid="support-address">
                      {supportAddress}
                    </Anchor>
                    {/* A break opportunity between the address and the Japanese that follows it. */}
                    <wbr />
                  </>
                ) : (
                  "運営事務局"
                )}
                までお問い合わせください。
              </Text>
            </Paper>
          </Stack>
          <Divider />
        </Stack>
      </Container>
      <Footer />
      {forgotOpen && (
        <Suspense fallback={null}>
          <ForgotPasswordModal opened={forgotOpen} onClose={() => setForgotOpen(false)} />
        </Suspense>
      )}
    </Box>
  );
}
