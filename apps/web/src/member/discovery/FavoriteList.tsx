import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { ScheduledList } from "../mail/ScheduledList";
import { ProfileCard, ProfileGrid } from "./ProfileGrid";
import { SendToMemberDialog } from "./SendToMemberDialog";
import { DISCOVERY_TEXT } from "./text";
import { displayName, type PublicProfile } from "./types";
import { useFavoriteToggle } from "./useFavoriteToggle";

/**
 * お気に入り一覧 (spec §2): loading text, the screen's scheduled messages, empty state, cards with
 * photo or placeholder and name or 未設定, send (20 emojis, optional schedule) and remove.
 */
export function FavoriteList() {
  const trpc = useTRPC();
  const favorites = useQuery(trpc.members.favorites.queryOptions());
  const toggle = useFavoriteToggle();
  const [writing, setWriting] = useState<PublicProfile | null>(null);
  const list = favorites.data ?? [];

  const remove = async (profile: PublicProfile) => {
    const ok = await confirmAction({
      title: "お気に入りから削除",
      message: `${displayName(profile)}さんをお気に入りから削除しますか？`,
      confirmLabel: "削除する",
    });
    if (ok) await toggle.set(profile.id, false);
  };

  return (
    <Stack gap="md">
      <Title order={2}>お気に入り一覧</Title>
      <ScheduledList source="user:favorite" />
      <ListStates
        isLoading={favorites.isLoading}
        isError={favorites.isError}
        error={favorites.error}
        errorText={DISCOVERY_TEXT.favoritesFailed}
        onRetry={() => void favorites.refetch()}
        isEmpty={list.length === 0}
        emptyText="お気に入りに登録した会員はいません。プロフィール検索から追加できます。"
      >
        <Text size="sm" c="dimmed" data-testid="favorite-count">
          {list.length}人
        </Text>
        <ProfileGrid profiles={list} testId="favorite-list">
          {(profile, name) => (
            <ProfileCard
              key={profile.id}
              profile={profile}
              photoSize={72}
              testId="favorite-card"
              actions={
                <Group justify="flex-end" gap="xs" mt="sm" grow>
                  <Button
                    variant="default"
                    color="red"
                    onClick={() => void remove(profile)}
                    disabled={toggle.busy}
                    aria-label={`${name}さんを削除`}
                  >
                    削除
                  </Button>
                  <Button onClick={() => setWriting(profile)} aria-label={`${name}さんにメッセージ`}>
                    メッセージ
                  </Button>
                </Group>
              }
            />
          )}
        </ProfileGrid>
      </ListStates>
      <SendToMemberDialog
        recipient={writing}
        onClose={() => setWriting(null)}
        source="user:favorite"
        emojiSize="favourites"
      />
    </Stack>
  );
}
