import { Alert, Anchor, Text } from "@mantine/core";
import { Link } from "react-router-dom";
import { VERIFICATION_PATH } from "../../ui/refusal";
import { useVerificationStatus } from "./useVerificationStatus";

/**
 * Why a member's compose dialog cannot send yet (decision 0006): the server refuses every send
 * until the member is verified, so the dialog says so and links to the page instead of letting
 * the member write, confirm the cost and then fail. Null when the member may send (or while the
 * status is unknown: the server still decides).
 */
export function useSendLock(): string | null {
  const { data } = useVerificationStatus();
  if (!data || data.status === "verified") return null;
  return data.status === "pending"
    ? "年齢確認の審査中のため、まだ送信できません。"
    : "年齢確認が完了するまで送信できません。";
}

/** The notice shown in a compose dialog while `useSendLock()` is set. */
export function SendLockNotice() {
  return (
    <Alert color="orange" variant="light" role="note" data-testid="send-lock-notice">
      <Text size="sm">
        メッセージの送信には年齢確認が必要です。{" "}
        <Anchor component={Link} to={VERIFICATION_PATH} size="sm">
          年齢確認へ進む
        </Anchor>
      </Text>
    </Alert>
  );
}
