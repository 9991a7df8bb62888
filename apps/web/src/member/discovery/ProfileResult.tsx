import { ActionIcon, Anchor, Button, Card, Group, Loader, Stack, Text, UnstyledButton } from "@mantine/core";
import type { ReactNode } from "react";
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

/**
 * The member's name as the card's button to the paid detail: keyboard reachable, named
 * 「〇〇さんの詳細」, busy while the detail is asked for (a second click waits for the first).
 */
function NameButton({
  name,
  viewing,
  onOpen,
  size,
  fw,
}: {
  name: string;
  viewing: boolean;
  onOpen: () => void;
  size?: "sm";
  fw: number;
}) {
  return (
    <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
      <Anchor
        component="button"
        type="button"
        onClick={onOpen}
        aria-label={`${name}さんの詳細`}
        aria-busy={viewing || undefined}
        fw={fw}
        size={size}
        truncate
        style={{ display: "block", maxWidth: "100%", minHeight: 24, textAlign: "left" }}
      >
        {name}
      </Anchor>
      {viewing && <Loader size={12} aria-hidden />}
    </Group>
  );
}

/**
 * The photo opens the detail too, for a pointer: a larger target for the same action, out of the
 * tab order and hidden from assistive technology, where the name button stands for it.
 */
function PhotoButton({ children, onOpen }: { children: ReactNode; onOpen: () => void }) {
  return (
    <UnstyledButton onClick={onOpen} tabIndex={-1} aria-hidden style={{ display: "block", flexShrink: 0 }}>
      {children}
    </UnstyledButton>
  );
}

/**
 * One search result in the chosen view: the name (and, for a pointer, the photo) opens the paid
 * detail; message and favourite.
 */
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
        <PhotoButton onOpen={open}>
          <ProfilePhoto profile={profile} size="100%" />
        </PhotoButton>
        <Group justify="space-between" gap={4} mt={6} wrap="nowrap" align="flex-start">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <NameButton name={name} viewing={actions.viewing} onOpen={open} size="sm" fw={600} />
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
          <PhotoButton onOpen={open}>
            <ProfilePhoto profile={profile} size={96} />
          </PhotoButton>
          <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
            <Group gap={6} wrap="nowrap">
              <NameButton name={name} viewing={actions.viewing} onOpen={open} fw={700} />
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
        <PhotoButton onOpen={open}>
          <ProfilePhoto profile={profile} size={48} radius={24} />
        </PhotoButton>
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <NameButton name={name} viewing={actions.viewing} onOpen={open} fw={600} />
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
