import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import { SAFETY_TEXT, useBlockRefresh } from "../../features/safety";
import { confirmAction } from "../../lib/confirm";
import { formatDate } from "../../lib/format";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { notifyFailure } from "../../ui/notify-failure";
import { ProfileCard, ProfileGrid } from "../discovery/ProfileGrid";

/** ブロックリスト (設定): the members I blocked, newest first, each with 解除 after a confirmation. */
export function BlockedList() {
  const trpc = useTRPC();
  const blocked = useQuery(trpc.safety.blocked.queryOptions());
  const unblock = useMutation(trpc.safety.unblock.mutationOptions());
  const refresh = useBlockRefresh();
  const list = blocked.data ?? [];

  const ask = async (id: string, name: string) => {
    const ok = await confirmAction({
      title: "ブロックの解除",
      message: `${name}さんのブロックを解除しますか？お互いに検索などに表示され、メッセージのやり取りができるようになります。`,
      confirmLabel: "解除する",
      danger: false,
    });
    if (!ok) return;
    try {
      await unblock.mutateAsync({ userId: id });
      notifications.show({ color: "green", message: `${name}さんのブロックを解除しました。` });
    } catch (error) {
      notifyFailure(error, SAFETY_TEXT.unblockFailed);
    } finally {
      refresh();
    }
  };

  return (
    <Stack gap="md">
      <Title order={2}>ブロックリスト</Title>
      <Text size="sm" c="dimmed">
        ブロックした会員とは、お互いに検索・お気に入り・足あと・掲示板に表示されず、メッセージのやり取りもできません。
      </Text>
      <ListStates
        isLoading={blocked.isLoading}
        isError={blocked.isError}
        error={blocked.error}
        errorText={SAFETY_TEXT.blockedListFailed}
        onRetry={() => void blocked.refetch()}
        isEmpty={list.length === 0}
        emptyText="ブロックしている会員はいません。"
      >
        <Text size="sm" c="dimmed" data-testid="blocked-count">
          {list.length}人
        </Text>
        <ProfileGrid profiles={list} testId="blocked-list">
          {(profile, name) => (
            <ProfileCard
              key={profile.id}
              profile={profile}
              photoSize={64}
              testId="blocked-card"
              extra={
                <Text size="xs" c="dimmed">
                  ブロックした日: {formatDate(profile.blockedAt)}
                </Text>
              }
              actions={
                <Group justify="flex-end" mt="sm">
                  <Button
                    variant="default"
                    onClick={() => void ask(profile.id, name)}
                    loading={unblock.isPending && unblock.variables?.userId === profile.id}
                    aria-label={`${name}さんのブロックを解除`}
                  >
                    解除
                  </Button>
                </Group>
              }
            />
          )}
        </ProfileGrid>
      </ListStates>
    </Stack>
  );
}
