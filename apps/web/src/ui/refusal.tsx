import { REFUSAL_REASONS } from "@enmusubi/shared/constants";
// The message file alone: the package root would bring every schema (zod) into the shell.
import { VERIFICATION_MSG } from "@enmusubi/shared/messages/verification";
import { Alert, Anchor, Button, Group, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { TRPCClientError } from "@trpc/client";
import { Link } from "react-router-dom";
import { errorMessage } from "../lib/trpc";

/** Where a member verifies their age (the shell's banner links there too). */
const VERIFICATION_PATH = "/user/verification";

/** The machine-readable reason the server gave for refusing (tRPC `error.data.reason`), if any. */
export function refusalReason(error: unknown): string | undefined {
  if (!(error instanceof TRPCClientError)) return undefined;
  const reason = (error.data as { reason?: unknown } | undefined)?.reason;
  return typeof reason === "string" ? reason : undefined;
}

/** True when the server refused because the member is not age-verified yet (decision 0032). */
export const isVerificationRefusal = (error: unknown): boolean =>
  refusalReason(error) === REFUSAL_REASONS.verificationRequired;

/**
 * What a member who is not verified sees where a refused action's error would be: the
 * verification banner's words and its link, never the server's text naming a path, nor a retry
 * that would be refused again (decision 0032).
 */
export function VerificationRefusal() {
  return (
    <Alert
      color="orange"
      variant="light"
      title={VERIFICATION_MSG.verificationRefusalTitle}
      role="alert"
      data-testid="verification-refusal"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" style={{ flex: "1 1 16rem" }}>
          {VERIFICATION_MSG.verificationRefusal}
        </Text>
        <Button component={Link} to={VERIFICATION_PATH} size="xs" color="orange">
          {VERIFICATION_MSG.verificationBannerLink}
        </Button>
      </Group>
    </Alert>
  );
}

/**
 * A failed action announced as a notification: the verification notice with its link when that
 * is the reason, else the server's Japanese message or `fallback`. Notifications are drawn outside
 * the router, so the link is a plain one.
 */
export function notifyFailure(error: unknown, fallback: string): void {
  if (isVerificationRefusal(error)) {
    notifications.show({
      color: "orange",
      title: VERIFICATION_MSG.verificationRefusalTitle,
      message: (
        <>
          {VERIFICATION_MSG.verificationRefusal}{" "}
          <Anchor href={VERIFICATION_PATH} size="sm" fw={700}>
            {VERIFICATION_MSG.verificationBannerLink}
          </Anchor>
        </>
      ),
    });
    return;
  }
  notifications.show({ color: "red", message: errorMessage(error, fallback) });
}

/** An inline failure: the verification notice when that is the reason, else `text` in red. */
export function FailureText({ error, text }: { error: unknown; text: string | null | undefined }) {
  if (isVerificationRefusal(error)) return <VerificationRefusal />;
  if (!text) return null;
  return (
    <Text c="red" size="sm" role="alert">
      {text}
    </Text>
  );
}
