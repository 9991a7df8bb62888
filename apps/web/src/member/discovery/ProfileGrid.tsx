import { Card, Group, SimpleGrid, Stack, Text } from "@mantine/core";
import type { ReactNode } from "react";
import { ProfilePhoto } from "./ProfilePhoto";
import { displayName, type PublicProfile, summaryLine } from "./types";

/**
 * The grid of member cards the member lists share (お気に入り, ブロックリスト): one column on a
 * phone, two from sm, three from lg. The screen renders each card (a ProfileCard), given the
 * member and their shown name.
 */
export function ProfileGrid<P extends PublicProfile>({
  profiles,
  testId,
  children,
}: {
  profiles: readonly P[];
  testId: string;
  children: (profile: P, name: string) => ReactNode;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" data-testid={testId}>
      {profiles.map((profile) => children(profile, displayName(profile)))}
    </SimpleGrid>
  );
}

/** One member's card: photo, name (or 未設定), the summary line, any extra lines, then the actions. */
export function ProfileCard({
  profile,
  photoSize,
  testId,
  extra,
  actions,
}: {
  profile: PublicProfile;
  photoSize: number;
  testId: string;
  extra?: ReactNode;
  actions: ReactNode;
}) {
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <ProfilePhoto profile={profile} size={photoSize} />
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Text fw={700} truncate>
            {displayName(profile)}
          </Text>
          <Text size="sm" c="dimmed">
            {summaryLine(profile)}
          </Text>
          {extra}
        </Stack>
      </Group>
      {actions}
    </Card>
  );
}
