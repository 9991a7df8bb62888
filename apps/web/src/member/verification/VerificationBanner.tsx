// The message file alone: the package root would bring every schema (zod) into the shell.
import { VERIFICATION_MSG as MSG } from "@enmusubi/shared/messages/verification";
import { Alert, Button, Group, Text } from "@mantine/core";
import { Link, useLocation } from "react-router-dom";
import { VERIFICATION_PATH } from "../../ui/refusal";
import { useVerificationStatus } from "./useVerificationStatus";

/**
 * The member shell's banner for every member who is not verified yet (decision 0006): what is
 * locked and the way to verify, instead of letting actions fail. Pending says 審査中. On the
 * verification page itself the link is left out; nothing shows while the status is unknown.
 */
export function VerificationBanner() {
  const { data } = useVerificationStatus();
  const { pathname } = useLocation();
  if (!data || data.status === "verified") return null;
  const onPage = pathname.replace(/\/$/, "") === VERIFICATION_PATH;
  const pending = data.status === "pending";
  const text =
    data.status === "pending"
      ? MSG.verificationBannerPending
      : data.status === "rejected"
        ? MSG.verificationBannerRejected
        : MSG.verificationBannerUnverified;
  return (
    <Alert
      color={pending ? "blue" : "orange"}
      variant="light"
      title={pending ? "年齢確認：審査中" : "年齢確認が必要です"}
      // A standing notice, not an alert: announced once as a landmark, not on every screen change.
      role="region"
      data-testid="verification-banner"
      data-status={data.status}
      mb="md"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" style={{ flex: "1 1 16rem" }}>
          {text}
        </Text>
        {!onPage && (
          <Button component={Link} to={VERIFICATION_PATH} size="xs" color={pending ? "blue" : "orange"}>
            {pending ? "審査状況を見る" : MSG.verificationBannerLink}
          </Button>
        )}
      </Group>
    </Alert>
  );
}
