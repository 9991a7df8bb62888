import { REFUSAL_REASONS } from "@enmusubi/shared/constants";
// The message file alone: the package root would bring every schema (zod) into the shell.
import { VERIFICATION_MSG } from "@enmusubi/shared/messages/verification";
import { Alert, Button, Group, Text } from "@mantine/core";
import { TRPCClientError } from "@trpc/client";
import { Link } from "react-router-dom";

/** Where a member verifies their age (the shell's banner, locked messages and refusals link there). */
export const VERIFICATION_PATH = "/user/verification";

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
