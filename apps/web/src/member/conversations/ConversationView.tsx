import { MSG, SCHEDULER_POLL_MS, THREAD_PAGE_SIZE } from "@enmusubi/shared";
import { Alert, Anchor, Avatar, Badge, Button, Group, Stack, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { useLayoutEffect, useRef } from "react";
import { Link } from "react-router-dom";
import { partyName } from "../../features/messages";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { useCancelScheduled } from "../mail/useCancelScheduled";
import { useOpenMessage } from "../mail/useOpenMessage";
import { useCurrentUser } from "../useCurrentUser";
import { HeldBubble, MessageBubble, ScheduledBubble } from "./Bubbles";
import classes from "./conversations.module.css";
import { ReplyBox } from "./ReplyBox";

/**
 * One conversation (やりとり, decision 0030): every message with the partner, oldest at the top, newest
 * at the bottom, older ones read from the server a page at a time (「以前のメッセージを読み込む」);
 * sealed ones opened as on the mail screens (the server's price confirmed, then charged and read);
 * the member's messages held for review after them (確認中, decision 0042), then their scheduled
 * messages to the partner (予約); the reply box last, with the draft kept per partner.
 */
export function ConversationView({ partnerId }: { partnerId: string }) {
  const trpc = useTRPC();
  const me = useCurrentUser().data;
  const { open, pendingId } = useOpenMessage();
  const { cancelScheduled, cancellingId } = useCancelScheduled();
  const thread = useInfiniteQuery(
    trpc.messages.thread.infiniteQueryOptions(
      { partnerId, limit: THREAD_PAGE_SIZE },
      {
        getNextPageParam: (page) => page.nextCursor ?? undefined,
        // While a scheduled message waits, follow it at the scheduler's pace (spec §9): sent, it joins the messages.
        refetchInterval: (query) =>
          (query.state.data?.pages[0]?.scheduled.length ?? 0) > 0 ? SCHEDULER_POLL_MS : false,
      },
    ),
  );
  const pages = thread.data?.pages ?? [];
  const first = pages[0];
  const messages = [...pages].reverse().flatMap((p) => p.messages);
  const partner = first?.partner;

  // Older messages go on top: the page keeps what the member was reading where it was.
  const heightBefore = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (heightBefore.current === null) return;
    window.scrollBy(0, document.documentElement.scrollHeight - heightBefore.current);
    heightBefore.current = null;
  }, [pages.length]);
  // The newest message and the reply box in view on arrival.
  const shownOnce = useRef(false);
  const bottom = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (shownOnce.current || !first) return;
    shownOnce.current = true;
    bottom.current?.scrollIntoView?.({ block: "end" });
  }, [first]);

  const loadOlder = () => {
    heightBefore.current = document.documentElement.scrollHeight;
    void thread.fetchNextPage();
  };

  const name = partner ? partyName(partner) : "";
  const newestFromPartner = [...messages].reverse().find((m) => m.from.id === partnerId);
  const closedReason = !partner
    ? null
    : !partner.reachable
      ? MSG.conversationClosed
      : !partner.verified
        ? MSG.recipientCannotRead
        : null;

  return (
    <Stack gap="md">
      <Anchor component={Link} to="/user/messages" size="sm">
        ← メッセージ一覧へ
      </Anchor>
      <Group gap="sm" wrap="nowrap">
        {partner && (
          <Avatar src={partner.photoLink} alt={name} radius="xl" size={44} color="pink">
            {name.slice(0, 1)}
          </Avatar>
        )}
        <Title order={2} style={{ minWidth: 0, overflowWrap: "anywhere" }}>
          {partner ? `${name}${partner.role === "admin" ? "" : "さん"}とのメッセージ` : "メッセージ"}
        </Title>
        {partner?.role === "admin" && (
          <Badge color="grape" variant="light">
            運営
          </Badge>
        )}
      </Group>
      <ListStates
        isLoading={thread.isLoading}
        isError={thread.isError && !thread.data}
        error={thread.error}
        errorText={errorMessage(thread.error, MSG.threadFetchFailed)}
        onRetry={() => void thread.refetch()}
        isEmpty={false}
        emptyText=""
      >
        <Stack gap="sm">
          {thread.hasNextPage && (
            <Group justify="center">
              <Button variant="light" onClick={loadOlder} loading={thread.isFetchingNextPage}>
                以前のメッセージを読み込む
              </Button>
            </Group>
          )}
          {messages.length === 0 && (first?.held.length ?? 0) === 0 && (
            <Text c="dimmed" ta="center" data-testid="thread-empty">
              まだメッセージはありません。最初のメッセージを送ってみましょう。
            </Text>
          )}
          <div className={classes.thread} data-testid="thread">
            {messages.map((m) => (
              <MessageBubble
                key={m.id}
                message={m}
                mine={m.from.id !== partnerId}
                onOpen={() => void open(m)}
                opening={pendingId === m.id}
              />
            ))}
            {first?.held.map((item) => (
              <HeldBubble key={item.id} item={item} />
            ))}
            {first?.scheduled.map((entry) => (
              <ScheduledBubble
                key={entry.id}
                entry={entry}
                onCancel={() => void cancelScheduled(entry.id)}
                cancelling={cancellingId === entry.id}
              />
            ))}
          </div>
          {thread.isFetchNextPageError && (
            <Alert color="red" role="alert">
              {MSG.threadFetchFailed}
            </Alert>
          )}
          <div ref={bottom}>
            {partner && me && (
              <ReplyBox
                memberId={me.id}
                partner={partner}
                closedReason={closedReason}
                replyTo={newestFromPartner && !newestFromPartner.hasReply ? newestFromPartner.id : null}
              />
            )}
          </div>
        </Stack>
      </ListStates>
    </Stack>
  );
}
