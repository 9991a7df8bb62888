import { Button } from "@mantine/core";
import { Link } from "react-router-dom";
import { VERIFICATION_PATH } from "../../ui/refusal";

/**
 * In place of reply / mark-as-read on a message locked until the member is verified (the server
 * refuses those): the way to verify. The card itself shows the server's notice instead of the body.
 */
export function LockedMessageAction() {
  return (
    <Button component={Link} to={VERIFICATION_PATH} size="xs" variant="light" color="orange">
      年齢確認して読む
    </Button>
  );
}
