import { ActionIcon, Button, Card, Group, Stack, Text, UnstyledButton } from "@mantine/core";
import { ProfilePhoto } from "./ProfilePhoto";
import { displayName, genderLabel, type PublicProfile, summaryLine } from "./types";
import { VerifiedBadge } from "./VerifiedBadge";

export type SearchView = "grid" | "card" | "list";

export interface ResultActions {
  onView: (profile: PublicProfile) => void;
  onMessage: (profile: PublicProfile) => void;
  onFavorite: (profile: PublicProfile, favorite: boolean) => void;
  viewing: boolean;
  favoriteBusy: boolean;
}

function FavoriteButton({
  profile,
  isFavorite,
  actions,
}: {
  profile: PublicProfile;
  isFavorite: boolean;
  actions: ResultActions;
}) {
  const name = displayName(profile);
  return (
    <ActionIcon
      variant={isFavorite ? "filled" : "default"}
      color="pink"
      size={44}
      radius="xl"
      aria-pressed={isFavorite}
      aria-label={isFavorite ? `${name}さんをお気に入りから外す` : `${name}さんをお気に入りに追加`}
      title={isFavorite ? "お気に入りから外す" : "お気に入りに追加"}
      disabled={actions.favoriteBusy}
      onClick={() => actions.onFavorite(profile, !isFavorite)}
    >
      <span aria-hidden style={{ fontSize: 20, lineHeight: 1 }}>
        {isFavorite ? "♥" : "♡"}
      </span>
    </ActionIcon>
  );
}

/** One search result in the chosen view: the name opens the paid detail; message and favourite. */
export function ProfileResult({
  profile,
  isFavorite,
  view,
  actions,
}: {
  profile: PublicProfile;
  isFavorite: boolean;
  view: SearchView;
  actions: ResultActions;
}) {
  const name = displayName(profile);
  const summary = summaryLine(profile);
  const open = () => actions.onView(profile);

  if (view === "grid")
    return (
      <Card withBorder padding="xs" data-testid="search-result">
        <UnstyledButton onClick={open} aria-label={`${name}さんの詳細`} disabled={actions.viewing}>
          <ProfilePhoto profile={profile} size="100%" />
        </UnstyledButton>
        <Group justify="space-between" gap={4} mt={6} wrap="nowrap" align="flex-start">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text fw={600} size="sm" truncate>
              {name}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {profile.age !== null ? `${profile.age}歳` : genderLabel(profile.gender)}
              {profile.prefecture ? `・${profile.prefecture}` : ""}
            </Text>
            <VerifiedBadge profile={profile} />
          </Stack>
          <FavoriteButton profile={profile} isFavorite={isFavorite} actions={actions} />
        </Group>
      </Card>
    );

  const buttons = (
    <Group gap="xs" wrap="nowrap">
      <Button size="sm" variant="light" onClick={open} loading={actions.viewing} aria-label={`${name}さんの詳細`}>
        詳細
      </Button>
      <Button
        size="sm"
        variant="default"
        onClick={() => actions.onMessage(profile)}
        aria-label={`${name}さんにメッセージ`}
      >
        メッセージ
      </Button>
      <FavoriteButton profile={profile} isFavorite={isFavorite} actions={actions} />
    </Group>
  );

  if (view === "card")
    return (
      <Card withBorder padding="sm" data-testid="search-result">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ProfilePhoto profile={profile} size={96} />
          <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
            <Group gap={6} wrap="nowrap">
              <Text fw={700} truncate>
                {name}
              </Text>
              <VerifiedBadge profile={profile} />
            </Group>
            <Text size="sm" c="dimmed">
              {genderLabel(profile.gender)}
              {summary ? `・${summary}` : ""}
            </Text>
            {profile.annualIncome && (
              <Text size="sm" c="dimmed">
                年収 {profile.annualIncome.label}
              </Text>
            )}
          </Stack>
        </Group>
        <Group justify="flex-end" mt="sm">
          {buttons}
        </Group>
      </Card>
    );

  return (
    <Group
      gap="sm"
      wrap="wrap"
      justify="space-between"
      py="xs"
      style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}
      data-testid="search-result"
    >
      <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: "1 1 200px" }}>
        <ProfilePhoto profile={profile} size={48} radius={24} />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <Text fw={600} truncate>
              {name}
            </Text>
            <VerifiedBadge profile={profile} />
          </Group>
          <Text size="xs" c="dimmed" truncate>
            {summary || genderLabel(profile.gender)}
          </Text>
        </Stack>
      </Group>
      {buttons}
    </Group>
  );
}
