// Apart from refusal.tsx, so that a screen showing lists only (ListStates) does not bring the
// notifications package with it.
import { VERIFICATION_MSG } from "@enmusubi/shared/messages/verification";
import { Anchor } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { errorMessage } from "../lib/trpc";
import { isVerificationRefusal, VERIFICATION_PATH } from "./refusal";

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
