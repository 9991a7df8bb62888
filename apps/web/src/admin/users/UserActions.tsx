import { ActionIcon, Button, Tooltip } from "@mantine/core";
import { SuspendButton } from "../moderation/SuspendButton";
import { ADMIN_PHONE_TEXT } from "./text";
import type { AdminUser } from "./types";

export interface UserActionHandlers {
  onSendPoints(user: AdminUser): void;
  onEdit(user: AdminUser): void;
  onLedger(user: AdminUser): void;
  onMessage(user: AdminUser): void;
  onDelete(user: AdminUser): void;
  onPhone(user: AdminUser): void;
  deletingId: string | undefined;
}

/** A user's buttons, the same in the table and on a phone's card: 編集 / 履歴, and メッセージ / 利用停止 / 削除 for members. */
export function UserActions({
  user,
  handlers: h,
  size = "compact-xs",
}: {
  user: AdminUser;
  handlers: UserActionHandlers;
  /** The table's compact buttons; "xs" on a phone's card (a finger's target). */
  size?: "compact-xs" | "xs";
}) {
  return (
    <>
      <Button size={size} variant="light" onClick={() => h.onEdit(user)}>
        編集
      </Button>
      <Button size={size} variant="default" onClick={() => h.onLedger(user)}>
        履歴
      </Button>
      {user.role !== "admin" && (
        <Button size={size} variant="light" color="teal" onClick={() => h.onMessage(user)}>
          メッセージ
        </Button>
      )}
      {user.role !== "admin" && (
        <Button
          size={size}
          variant={user.phoneVerified ? "light" : "default"}
          color={user.phoneVerified ? "green" : undefined}
          onClick={() => h.onPhone(user)}
          aria-label={`${user.userID}の${ADMIN_PHONE_TEXT.button}（${user.phoneVerified ? ADMIN_PHONE_TEXT.verified : ADMIN_PHONE_TEXT.unverified}）`}
        >
          {ADMIN_PHONE_TEXT.button}
          {user.phoneVerified ? " ✓" : ""}
        </Button>
      )}
      {user.role !== "admin" && <SuspendButton user={user} size={size} />}
      {user.role !== "admin" && (
        <Button
          size={size}
          color="red"
          variant="light"
          onClick={() => h.onDelete(user)}
          loading={h.deletingId === user.id}
        >
          削除
        </Button>
      )}
    </>
  );
}

/** ✎ beside the send points: opens their edit. */
export function SendPointsEdit({
  user,
  handlers,
  size = "compact-xs",
}: {
  user: AdminUser;
  handlers: UserActionHandlers;
  size?: "compact-xs" | "xs";
}) {
  return (
    <Tooltip label="送信ポイントを編集">
      <ActionIcon
        variant="subtle"
        size={size === "xs" ? "lg" : "sm"}
        onClick={() => handlers.onSendPoints(user)}
        aria-label={`${user.userID}の送信ポイントを編集`}
      >
        ✎
      </ActionIcon>
    </Tooltip>
  );
}
