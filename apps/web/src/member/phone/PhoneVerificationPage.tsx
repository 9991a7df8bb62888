import { FREE_POINT_VALIDITY_DAYS, MSG, PHONE_VERIFICATION } from "@enmusubi/shared";
import { Alert, Badge, Button, Card, Group, List, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PHONE_TEXT } from "./text";

/** Seconds left of `initial`, counted down once a second (the resend wait the server answered). */
function useCountdown(initial: number | undefined): number {
  const [left, setLeft] = useState(initial ?? 0);
  useEffect(() => {
    setLeft(initial ?? 0);
    if (!initial) return;
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, initial - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [initial]);
  return left;
}

/**
 * 電話番号認証 (/user/phone-verification; decision 0048): what it unlocks (the sign-up bonus, the
 * daily login bonus), then the number → the 6-digit code sent by SMS, with the resend wait shown
 * and the server's Japanese refusals in an alert. Once verified, the masked number and when.
 */
export function PhoneVerificationPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.phone.status.queryOptions());
  const [phone, setPhone] = useState("");
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const phoneInput = useRef<HTMLInputElement>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.phone.status.queryKey() });
  const wait = useCountdown(status.data?.resendWaitSeconds);

  const request = useMutation(
    trpc.phone.requestCode.mutationOptions({
      onSuccess: (result) => {
        setError(null);
        setChanging(false);
        setCode("");
        notifications.show({ color: "green", message: result.message });
        void refresh().then(() => codeInput.current?.focus());
      },
      onError: (e) => {
        setError(errorMessage(e, MSG.phoneSmsFailed));
        void refresh();
      },
    }),
  );
  const confirm = useMutation(
    trpc.phone.confirmCode.mutationOptions({
      onSuccess: (result) => {
        setError(null);
        notifications.show({ color: "green", message: result.message });
        void refresh();
        // The balance (a sign-up bonus) shows on the dashboard and in the header.
        void queryClient.invalidateQueries({ queryKey: trpc.profile.me.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.account.pointBalance.queryKey() });
      },
      onError: (e) => {
        setError(errorMessage(e, MSG.genericError));
        setCode("");
        void refresh();
        codeInput.current?.focus();
      },
    }),
  );

  const data = status.data;
  const pending = data && !data.verified && !changing ? data.pendingCode : null;

  const sendCode = (event: FormEvent) => {
    event.preventDefault();
    request.mutate({ phone });
  };
  const resend = () => {
    if (pending) request.mutate({ phone: pending.phone });
  };
  const confirmCode = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate({ code });
  };

  return (
    <Stack gap="md" maw={640}>
      <Title order={2}>{PHONE_TEXT.title}</Title>
      <ListStates
        isLoading={status.isLoading}
        isError={status.isError}
        error={status.error}
        errorText={PHONE_TEXT.loadFailed}
        onRetry={() => void status.refetch()}
        isEmpty={false}
        emptyText=""
      >
        {null}
      </ListStates>
      {data && (
        <Card withBorder padding="md" component="section" aria-labelledby="phone-unlocks-title">
          <Stack gap="xs">
            <Title order={3} size="h5" id="phone-unlocks-title">
              {PHONE_TEXT.unlocksTitle}
            </Title>
            <List size="sm" spacing={4}>
              <List.Item>
                {data.signupBonus.pending
                  ? PHONE_TEXT.signupBonus(data.signupBonus.points)
                  : PHONE_TEXT.signupBonusDone}
              </List.Item>
              <List.Item>
                {data.loginBonusPoints > 0 ? PHONE_TEXT.loginBonus(data.loginBonusPoints) : PHONE_TEXT.loginBonusOff}
              </List.Item>
            </List>
            <Text size="xs" c="dimmed">
              {PHONE_TEXT.freeValidity(FREE_POINT_VALIDITY_DAYS)} {PHONE_TEXT.oneNumber}
            </Text>
          </Stack>
        </Card>
      )}

      {error && (
        <Alert color="red" role="alert" data-testid="phone-error">
          {error}
        </Alert>
      )}

      {data?.verified && (
        <Card withBorder padding="md" data-testid="phone-verified">
          <Stack gap={4}>
            <Group gap="xs">
              <Badge color="green">{PHONE_TEXT.verified}</Badge>
              <Text fw={600}>{data.phone}</Text>
            </Group>
            {data.verifiedAt && (
              <Text size="sm" c="dimmed">
                {PHONE_TEXT.verifiedAt}: {formatDateTime(data.verifiedAt)}
              </Text>
            )}
          </Stack>
        </Card>
      )}

      {data && !data.verified && !pending && (
        <Card withBorder padding="md" component="form" onSubmit={sendCode} aria-label={PHONE_TEXT.send}>
          <Stack gap="sm">
            <TextInput
              ref={phoneInput}
              label={PHONE_TEXT.numberLabel}
              description={PHONE_TEXT.numberHint}
              placeholder="090-1234-5678"
              type="tel"
              inputMode="tel"
              autoComplete="tel-national"
              maxLength={30}
              value={phone}
              onChange={(e) => setPhone(e.currentTarget.value)}
              required
            />
            <Group justify="flex-end">
              <Button type="submit" loading={request.isPending} disabled={wait > 0}>
                {PHONE_TEXT.send}
              </Button>
            </Group>
            {wait > 0 && (
              <Text size="sm" c="dimmed" role="status">
                {PHONE_TEXT.resendIn(wait)}
              </Text>
            )}
          </Stack>
        </Card>
      )}

      {pending && (
        <Card withBorder padding="md" component="form" onSubmit={confirmCode} aria-label={PHONE_TEXT.confirm}>
          <Stack gap="sm">
            <Text size="sm" data-testid="phone-code-sent">
              {PHONE_TEXT.codeSentTo(pending.phone)}
            </Text>
            <Text size="xs" c="dimmed">
              {PHONE_TEXT.codeValidity(PHONE_VERIFICATION.codeTtlMinutes, PHONE_VERIFICATION.maxAttempts)}{" "}
              {PHONE_TEXT.attemptsLeft(pending.attemptsLeft)}
            </Text>
            <TextInput
              ref={codeInput}
              label={PHONE_TEXT.codeLabel}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={PHONE_VERIFICATION.codeDigits}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
              required
            />
            <Group justify="flex-end">
              <Button type="submit" loading={confirm.isPending}>
                {PHONE_TEXT.confirm}
              </Button>
            </Group>
            <Group justify="space-between" gap="xs">
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={resend}
                disabled={wait > 0}
                loading={request.isPending}
              >
                {wait > 0 ? PHONE_TEXT.resendIn(wait) : PHONE_TEXT.resend}
              </Button>
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() => {
                  setChanging(true);
                  setError(null);
                  setPhone("");
                }}
              >
                {PHONE_TEXT.changeNumber}
              </Button>
            </Group>
            <Text size="xs" c="dimmed">
              {PHONE_TEXT.notArrived}
            </Text>
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
