import { Avatar, Group, Paper, Stack, Text } from "@mantine/core";
import { displayName } from "../lib/display-name";
import { formatPoints } from "../lib/format";
import { TextPlaceholder } from "../ui/TextPlaceholder";
import type { CurrentUser } from "./useCurrentUser";

/**
 * Name (or a 'not set' placeholder), ID and live points (spec §2 member shell). Drawn while the
 * member's data loads too, its lines as skeletons of their own height: the menu below it, and on
 * a wide screen the footer, do not move when the data comes.
 */
export function MemberCard({ user }: { user: CurrentUser | undefined }) {
  if (!user)
    return (
      <Paper withBorder p="sm" radius="md" role="region" aria-label="会員情報" aria-busy="true">
        <Group gap="sm" wrap="nowrap">
          <Avatar radius="xl" color="pink" alt="" />
          <Stack gap={0} style={{ minWidth: 0 }}>
            <TextPlaceholder />
            <TextPlaceholder size="xs" width="6em" />
            <TextPlaceholder size="sm" width="4em" />
          </Stack>
        </Group>
      </Paper>
    );
  return (
    <Paper withBorder p="sm" radius="md" role="region" aria-label="会員情報">
      <Group gap="sm" wrap="nowrap">
        <Avatar src={user.photoUrl} alt={user.name || user.userID} radius="xl" color="pink">
          {(user.name ?? "?").slice(0, 1)}
        </Avatar>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {displayName(user)}
          </Text>
          <Text size="xs" c="dimmed">
            ID: {user.userID}
          </Text>
          <Text size="sm" c="pink.7" fw={700} data-testid="member-card-points">
            {formatPoints(user.points)}
          </Text>
        </Stack>
      </Group>
    </Paper>
  );
}
