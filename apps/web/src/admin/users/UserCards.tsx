import { genderLabels } from "@enmusubi/shared";
import { Avatar, Badge, Card, Group, Stack, Text } from "@mantine/core";
import { displayName } from "../../lib/display-name";
import { formatPoints } from "../../lib/format";
import type { AdminUser } from "./types";
import { SendPointsEdit, type UserActionHandlers, UserActions } from "./UserActions";

/**
 * ユーザー一覧 on a phone: a card per user (photo, name, user ID, gender, points and send points)
 * with its buttons wrapped under it, all in view; the table hid every button behind a sideways
 * scroll at 320 px.
 */
export function UserCards({ users, handlers }: { users: AdminUser[] | undefined; handlers: UserActionHandlers }) {
  if (users && users.length === 0)
    return (
      <Text c="dimmed" ta="center" py="md">
        該当するユーザーはいません。
      </Text>
    );
  return (
    <Stack gap="xs" component="ul" aria-label="ユーザー一覧" p={0} m={0} style={{ listStyle: "none" }}>
      {users?.map((user) => (
        <Card
          key={user.id}
          component="li"
          withBorder
          padding="sm"
          data-userid={user.userID}
          aria-label={`${displayName(user)}（${user.userID}）`}
        >
          <Stack gap="xs">
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <Avatar src={user.photoUrl} alt={user.name ?? user.userID} radius="xl" size="md" color="pink">
                {(user.name ?? "?").slice(0, 1)}
              </Avatar>
              <div style={{ minWidth: 0 }}>
                <Text component="div" fw={600} style={{ overflowWrap: "anywhere" }}>
                  {displayName(user)}{" "}
                  {user.role === "admin" && (
                    <Badge size="xs" color="grape" variant="light">
                      管理者
                    </Badge>
                  )}
                </Text>
                <Text size="sm" ff="monospace" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                  {user.userID}
                </Text>
              </div>
            </Group>
            <Group gap="md" wrap="wrap">
              <Text size="sm">{genderLabels[user.gender]}</Text>
              <Text size="sm">購入 {formatPoints(user.points)}</Text>
              <Group gap={2} wrap="nowrap">
                <Text size="sm">送信 {formatPoints(user.sendPoints)}</Text>
                <SendPointsEdit user={user} handlers={handlers} size="xs" />
              </Group>
            </Group>
            <Group gap={6} wrap="wrap">
              <UserActions user={user} handlers={handlers} size="xs" />
            </Group>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
