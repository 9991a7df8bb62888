import { MSG, SCREENING_REASON_MAX, type ScreeningHoldKind } from "@enmusubi/shared";
import { Group, Modal, SegmentedControl, Stack, Text, Textarea, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { countLabel } from "../../lib/count-label";
import { formatPoints } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import { HeldCard } from "./HeldCard";
import { SCREENING_TEXT } from "./text";
import { type HeldItem, personLabel } from "./types";

type StatusFilter = "held" | "decided";
type KindFilter = "all" | ScreeningHoldKind;

/**
 * 投稿・メッセージ確認 (出会い系サイト規制法 art. 12, decision 0042): the messages and board posts a
 * screening rule held, oldest first, paged on the server; release one (delivered or published now,
 * once) after a confirmation, or reject it with a reason (never delivered; its points go back to
 * the member, who is not told why). The handled ones under 対応済み, newest decision first.
 */
export function ScreeningQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<StatusFilter>("held");
  const [kind, setKind] = useState<KindFilter>("all");
  const [page, setPage] = useState(1);
  const [rejecting, setRejecting] = useState<HeldItem | null>(null);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);

  const queue = useQuery({
    ...trpc.adminScreening.queue.queryOptions({ status, page, ...(kind === "all" ? {} : { kind }) }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.adminScreening.queue.pathKey() });
    // The menu's badge and the dashboard's 対応待ち count the held items.
    void queryClient.invalidateQueries({ queryKey: trpc.adminDashboard.pathKey() });
  };
  const release = useMutation(trpc.adminScreening.release.mutationOptions());
  const reject = useMutation(trpc.adminScreening.reject.mutationOptions());

  const askRelease = async (item: HeldItem) => {
    const ok = await confirmAction({
      title: "公開の確認",
      message:
        item.kind === "message" && item.recipient
          ? `${personLabel(item.author)}から${personLabel(item.recipient)}へのメッセージを届けますか？届けたメッセージは取り消せません。`
          : `${personLabel(item.author)}の投稿「${item.title ?? ""}」を掲示板に公開しますか？`,
      confirmLabel: "公開する",
      danger: false,
    });
    if (!ok) return;
    try {
      await release.mutateAsync({ id: item.id });
      notifications.show({ color: "green", message: MSG.screeningReleased });
    } catch (error) {
      notifications.show({ color: "red", message: errorMessage(error, SCREENING_TEXT.releaseFailed) });
    } finally {
      refresh();
    }
  };

  const openReject = (item: HeldItem) => {
    setReason("");
    setReasonError(null);
    setRejecting(item);
  };

  const submitReject = async () => {
    if (!rejecting) return;
    const trimmed = reason.trim();
    if (!trimmed) return setReasonError(MSG.screeningReasonRequired);
    if (trimmed.length > SCREENING_REASON_MAX) return setReasonError(MSG.screeningReasonTooLong);
    try {
      await reject.mutateAsync({ id: rejecting.id, reason: trimmed });
      notifications.show({ color: "green", message: MSG.screeningRejected });
      setRejecting(null);
      refresh();
    } catch (error) {
      setReasonError(errorMessage(error, SCREENING_TEXT.rejectFailed));
    }
  };

  const data = queue.data;
  const items = data?.items ?? [];
  const busy = release.isPending || reject.isPending;
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>投稿・メッセージ確認</Title>
        <Text size="sm" c="dimmed">
          検知ルールにより保留されたメッセージと掲示板の投稿を古い順に表示します。問題がなければ公開し、援助交際の勧誘や18歳未満に関わる内容などは却下してください。却下するとポイントは会員に返還されます（会員に理由は伝わりません）。
        </Text>
      </div>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <SegmentedControl
            aria-label="状態で絞り込み"
            value={status}
            onChange={(v) => {
              setStatus(v as StatusFilter);
              setPage(1);
            }}
            data={[
              { value: "held", label: "未対応" },
              { value: "decided", label: "対応済み" },
            ]}
          />
          <SegmentedControl
            aria-label="種類で絞り込み"
            value={kind}
            onChange={(v) => {
              setKind(v as KindFilter);
              setPage(1);
            }}
            data={[
              { value: "all", label: "すべて" },
              { value: "message", label: SCREENING_TEXT.holdKinds.message },
              { value: "board_post", label: "投稿" },
            ]}
          />
        </Group>
        <Text size="sm" c="dimmed" data-testid="held-total">
          {data ? countLabel(data.pagination.total, data.pagination.totalCapped) : "—"}
        </Text>
      </Group>
      <ListStates
        isLoading={queue.isLoading}
        isError={queue.isError}
        errorText={errorMessage(queue.error, SCREENING_TEXT.queueFailed)}
        onRetry={() => void queue.refetch()}
        isEmpty={items.length === 0}
        emptyText={
          status === "held" ? "確認待ちの投稿・メッセージはありません。" : "対応済みの投稿・メッセージはありません。"
        }
      >
        <Stack gap="sm" data-testid="held-list">
          {items.map((item) => (
            <HeldCard
              key={item.id}
              item={item}
              busy={busy}
              onRelease={() => void askRelease(item)}
              onReject={() => openReject(item)}
            />
          ))}
        </Stack>
      </ListStates>
      {data && <PagePagination total={data.pagination.totalPages} value={page} onChange={setPage} scrollToTop />}
      <Modal
        opened={rejecting !== null}
        onClose={() => setRejecting(null)}
        title={rejecting?.kind === "board_post" ? "投稿の却下" : "メッセージの却下"}
        centered
      >
        <Stack gap="sm">
          <Text size="sm">
            {rejecting?.kind === "board_post"
              ? "この投稿は掲示板に公開されません。"
              : "このメッセージは相手に届きません。"}
            {rejecting && rejecting.chargedPoints > 0
              ? `消費された${formatPoints(rejecting.chargedPoints)}は会員に返還されます。`
              : ""}
            会員に却下の理由は伝わりません。
          </Text>
          <Textarea
            label="却下の理由（管理者の記録用）"
            required
            rows={3}
            resize="vertical"
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setReasonError(null);
            }}
            error={reasonError}
            description={`${reason.trim().length} / ${SCREENING_REASON_MAX}文字`}
            data-autofocus
          />
          <FormActions
            onCancel={() => setRejecting(null)}
            onSubmit={() => void submitReject()}
            submitLabel="却下する"
            loading={reject.isPending}
          />
        </Stack>
      </Modal>
    </Stack>
  );
}
