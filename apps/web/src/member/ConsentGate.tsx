import { MSG, TERMS_CHANGE_SUMMARY, TERMS_VERSION } from "@enmusubi/shared";
import { Alert, Button, Paper, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useState } from "react";
import { ConsentCheckboxes } from "../features/consent/ConsentCheckboxes";
import { errorMessage, useTRPC } from "../lib/trpc";

/**
 * The first-sign-in gate (decision 0034): a member whose account accepted no terms, or an
 * older version (the legacy REST sign-up, an account an administrator made), is asked to accept the
 * terms and the privacy policy and to declare being 18 or older; until then no member screen is
 * drawn. The screen is drawn while the answer loads (it is read once per session) and when it
 * cannot be read: the server does not refuse other calls, the gate is the shell's (decision 0034).
 * A member who accepted an older version is told what changed (TERMS_CHANGE_SUMMARY, decision 0043).
 */
export function ConsentGate({ children }: { children: ReactNode }) {
  const trpc = useTRPC();
  const consent = useQuery({ ...trpc.account.consent.queryOptions(), staleTime: Number.POSITIVE_INFINITY });
  if (consent.data?.required) return <ConsentForm changed={consent.data.termsVersion !== null} />;
  return <>{children}</>;
}

function ConsentForm({ changed }: { changed: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [acceptTerms, setAcceptTerms] = useState(false);
  const [adult, setAdult] = useState(false);
  const [errors, setErrors] = useState<{ terms?: string; adult?: string; form?: string }>({});
  const accept = useMutation(
    trpc.account.acceptTerms.mutationOptions({
      onSuccess: (state) => queryClient.setQueryData(trpc.account.consent.queryKey(), state),
      onError: (err) => setErrors({ form: errorMessage(err, MSG.genericErrorDot) }),
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = {
      terms: acceptTerms ? undefined : MSG.termsConsentRequired,
      adult: adult ? undefined : MSG.adultDeclarationRequired,
    };
    setErrors(next);
    if (acceptTerms && adult) accept.mutate({ acceptTerms, adult, termsVersion: TERMS_VERSION });
  };
  return (
    <Paper withBorder p="lg" maw={560}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Title order={2}>{changed ? "利用規約の改定への同意" : "利用規約への同意"}</Title>
          {changed && (
            <Alert color="blue" title="利用規約とプライバシーポリシーを改定しました" data-testid="terms-change">
              {TERMS_CHANGE_SUMMARY}
            </Alert>
          )}
          <Text>
            縁結びをご利用いただくには、利用規約とプライバシーポリシーへの同意と、18歳以上であることの確認が必要です。内容をご確認のうえ、同意してください。
          </Text>
          {errors.form && (
            <Alert color="red" role="alert">
              {errors.form}
            </Alert>
          )}
          <ConsentCheckboxes
            act="ご利用"
            acceptTerms={acceptTerms}
            adult={adult}
            onAcceptTerms={setAcceptTerms}
            onAdult={setAdult}
            termsError={errors.terms}
            adultError={errors.adult}
          />
          <Button type="submit" loading={accept.isPending}>
            同意して始める
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
