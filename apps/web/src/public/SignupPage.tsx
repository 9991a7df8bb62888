import {
  FREE_POINT_VALIDITY_DAYS,
  type Gender,
  MSG,
  SIGNUP_BONUS_POINTS,
  SIGNUP_REDIRECT_MS,
  TERMS_VERSION,
} from "@enmusubi/shared";
import { Anchor, Box, Button, Container, Paper, SegmentedControl, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router-dom";
import { ConsentCheckboxes } from "../features/consent/ConsentCheckboxes";
import { Footer } from "../layout/Footer";
import { errorMessage, useTRPC } from "../lib/trpc";
import { usePageTitle } from "../lib/usePageTitle";
import classes from "./public.module.css";

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TITLES: Record<Gender, string> = { male: "男性会員登録", female: "女性会員登録" };

function genderFromState(state: unknown): Gender {
  const gender = (state as { gender?: unknown } | null)?.gender;
  return gender === "female" ? "female" : "male";
}

/**
 * /signup (spec §2): gender comes from the login page's buttons (default male). `?variant=landing`
 * is the second landing variant: the same form over a background image with the brand heading.
 */
export function SignupPage() {
  usePageTitle("会員登録");
  const location = useLocation();
  const [params] = useSearchParams();
  const landing = params.get("variant") === "landing";
  const [gender, setGender] = useState<Gender>(() => genderFromState(location.state));
  // The landing variant's h1 is the brand; otherwise the form's title is the page's h1.
  const form = (
    <SignupForm gender={gender} onGenderChange={landing ? setGender : undefined} headingOrder={landing ? 2 : 1} />
  );

  if (landing) {
    return (
      <Box className={classes.landing}>
        <main className={classes.landingInner}>
          <Stack gap="sm">
            <Title order={1} className={classes.landingHeading}>
              縁結び
            </Title>
            <Text size="lg" className={classes.landingLead}>
              大人のための、ていねいな出会いを。メールアドレスだけで今すぐ無料登録。
            </Text>
          </Stack>
          {form}
        </main>
        <Footer />
      </Box>
    );
  }
  return (
    <Box className={classes.page}>
      <Container component="main" size={440} className={classes.container}>
        {form}
      </Container>
      <Footer />
    </Box>
  );
}

function SignupForm({
  gender,
  onGenderChange,
  headingOrder,
}: {
  gender: Gender;
  onGenderChange?: (gender: Gender) => void;
  headingOrder: 1 | 2;
}) {
  const trpc = useTRPC();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [adult, setAdult] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [termsError, setTermsError] = useState<string | null>(null);
  const [adultError, setAdultError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  // Sign-up with consent (decision 0034).
  const signup = useMutation(trpc.auth.join.mutationOptions());

  // Spec §2: the login screen follows after SIGNUP_REDIRECT_MS (the dashboard then shows the points' expiry).
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate("/login"), SIGNUP_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [done, navigate]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setTermsError(acceptTerms ? null : MSG.termsConsentRequired);
    setAdultError(adult ? null : MSG.adultDeclarationRequired);
    const value = email.trim();
    if (!value) return setError(MSG.emailRequired);
    if (!EMAIL_PATTERN.test(value)) return setError(MSG.emailInvalid);
    if (!acceptTerms || !adult) return;
    signup.mutate(
      { email: value, gender, acceptTerms, adult, termsVersion: TERMS_VERSION },
      {
        onSuccess: () => setDone(true),
        onError: (err) => setError(errorMessage(err, MSG.genericErrorDot)),
      },
    );
  };

  return (
    <Paper withBorder shadow="md" p="lg" className={classes.card}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={headingOrder} size="h3">
            {TITLES[gender]}
          </Title>
          {onGenderChange && (
            <SegmentedControl
              value={gender}
              onChange={(value) => onGenderChange(value === "female" ? "female" : "male")}
              data={[
                { value: "male", label: "男性" },
                { value: "female", label: "女性" },
              ]}
            />
          )}
          <Text size="sm" c="dimmed">
            ご登録のメールアドレスにユーザーIDとパスワードをお送りします。18歳未満の方はご登録いただけません。
          </Text>
          {/* The only field: every error (also the server's) is its error, announced and tied to it. */}
          <TextInput
            label="メールアドレス"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            disabled={done}
            required
            error={error}
          />
          <ConsentCheckboxes
            act="ご登録"
            acceptTerms={acceptTerms}
            adult={adult}
            onAcceptTerms={(checked) => {
              setAcceptTerms(checked);
              setTermsError(null);
            }}
            onAdult={(checked) => {
              setAdult(checked);
              setAdultError(null);
            }}
            termsError={termsError}
            adultError={adultError}
            disabled={done}
          />
          {done && (
            <Stack gap="xs" role="status" data-testid="signup-done">
              <Text className={classes.success}>{MSG.signupDone}</Text>
              <Text size="sm">
                ログイン後に携帯電話番号の確認（SMS認証）を済ませると、登録特典として{SIGNUP_BONUS_POINTS}
                pt（無料ポイント）を差し上げます（1つの電話番号につき1アカウント）。無料ポイントの有効期限は付与日から
                {FREE_POINT_VALIDITY_DAYS}日間で、期限はログイン後のダッシュボードで確認できます。
              </Text>
              <Text size="sm">
                ログイン後、ダッシュボードの「プロフィールを編集」でニックネームを登録してください。{MSG.nicknameAdvice}
              </Text>
            </Stack>
          )}
          <Button type="submit" disabled={signup.isPending || done}>
            {signup.isPending ? "送信中..." : "登録する"}
          </Button>
          <Text size="sm" ta="center">
            <Anchor component={Link} to="/login" size="sm">
              ログイン画面へ戻る
            </Anchor>
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}

/** The route loads this page on demand (AppRoutes). */
export default SignupPage;
