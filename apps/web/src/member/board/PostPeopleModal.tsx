import { Avatar, Group, Modal, Stack, Tabs, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import type { BoardPostView } from "../../features/board";
import { displayName } from "../../lib/display-name";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";

type Kind = "readBy" | "likes" | "dislikes";
const TABS: { value: Kind; label: string; empty: string }[] = [
  { value: "readBy", label: "既読", empty: "まだ誰も既読にしていません。" },
  { value: "likes", label: "いいね", empty: "まだいいねはありません。" },
  { value: "dislikes", label: "よくないね", empty: "まだよくないねはありません。" },
];

/**
 * Who read, liked and disliked one of my posts (board.people: the latest 100 of each, public
 * profiles only), fetched when opened.
 */
export function PostPeopleModal({ post, onClose }: { post: BoardPostView | null; onClose: () => void }) {
  const trpc = useTRPC();
  const [tab, setTab] = useState<Kind>("readBy");
  const people = useQuery({
    ...trpc.board.people.queryOptions({ ids: post ? [post.id] : [] }),
    enabled: !!post,
  });
  const lists = post ? people.data?.[post.id] : undefined;
  return (
    <Modal
      opened={!!post}
      onClose={() => {
        setTab("readBy");
        onClose();
      }}
      title={post ? `「${post.title}」に反応した人` : ""}
      centered
    >
      <Tabs value={tab} onChange={(v) => setTab((v as Kind | null) ?? "readBy")}>
        <Tabs.List grow>
          {TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
              {lists ? ` ${lists[t.value].length}` : ""}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Panel key={t.value} value={t.value} pt="sm">
            <ListStates
              isLoading={people.isLoading}
              isError={people.isError}
              error={people.error}
              errorText={errorMessage(people.error, "反応した人の取得に失敗しました。")}
              onRetry={() => void people.refetch()}
              isEmpty={(lists?.[t.value].length ?? 0) === 0}
              emptyText={t.empty}
            >
              <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }} data-testid="post-people">
                {lists?.[t.value].map((person) => {
                  const name = displayName(person);
                  return (
                    <Group key={person.id} component="li" gap="sm" wrap="nowrap">
                      <Avatar src={person.photoLink} alt={name} radius="xl" size="md" color="pink">
                        {name.slice(0, 1)}
                      </Avatar>
                      <Text>{name}</Text>
                      {person.age !== null && (
                        <Text size="sm" c="dimmed">
                          {person.age}歳
                        </Text>
                      )}
                    </Group>
                  );
                })}
              </Stack>
            </ListStates>
          </Tabs.Panel>
        ))}
      </Tabs>
    </Modal>
  );
}
