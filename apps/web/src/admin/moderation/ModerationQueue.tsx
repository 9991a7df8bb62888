import { MODERATION_NOTE_MAX, REPORT_STATUS_LABELS, REPORT_STATUSES, type ReportStatus } from "@enmusubi/shared";
import { Group, Modal, SegmentedControl, Stack, Text, Textarea, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { countLabel } from "../../lib/count-label";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { FormActions } from "../../ui/FormActions";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import { ReportCard } from "./ReportCard";
import { partyLabel, type Report, TARGET_LABELS } from "./ReportContext";
import { MODERATION_TEXT } from "./text";

/**
 * 通報の確認 (出会い系サイト規制法 art. 12): reports oldest first, each with its content in
 * context; dismiss (対応不要), remove the content, or suspend the member, each confirmed first.
 * The reporter is told the outcome by mail in general terms.
 */
export function ModerationQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<ReportStatus>("open");
  const [page, setPage] = useState(1);
  const [dismissing, setDismissing] = useState<Report | null>(null);
  const [note, setNote] = useState("");
  const [dismissError, setDismissError] = useState<string | null>(null);

  const queue = useQuery({
    ...trpc.adminModeration.queue.queryOptions({ status, page }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.adminModeration.queue.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.adminModeration.standing.pathKey() });
    // User management shows each row's standing from its list.
    void queryClient.invalidateQueries({ queryKey: trpc.adminUsers.list.pathKey() });
  };
  const dismiss = useMutation(trpc.adminModeration.dismiss.mutationOptions());
  const remove = useMutation(trpc.adminModeration.removeContent.mutationOptions());
  const suspend = useMutation(trpc.adminModeration.suspendReported.mutationOptions());

  const run = async (action: () => Promise<unknown>, done: string) => {
    try {
      await action();
      notifications.show({ color: "green", message: done });
      return true;
    } catch (error) {
      notifications.show({ color: "red", message: errorMessage(error, MODERATION_TEXT.actionFailed) });
      return false;
    } finally {
      refresh();
    }
  };

  const askRemove = async (r: Report) => {
    const ok = await confirmAction({
      title: "内容の削除",
      message: `報告された${TARGET_LABELS[r.targetType]}を削除しますか？双方の会員から見えなくなり、同じ内容への未対応の報告もすべて「削除済み」になります。`,
      confirmLabel: "削除する",
      irreversible: true,
    });
    if (ok) await run(() => remove.mutateAsync({ id: r.id }), MODERATION_TEXT.removed);
  };

  const askSuspend = async (r: Report) => {
    const ok = await confirmAction({
      title: "会員の利用停止",
      message: `${partyLabel(r.targetUser)}を利用停止にしますか？すぐにログアウトされ、ログインできなくなります。この会員への未対応の報告はすべて「利用停止」になります。解除はユーザー管理から行えます。`,
      confirmLabel: "利用停止にする",
    });
    if (ok) await run(() => suspend.mutateAsync({ id: r.id }), MODERATION_TEXT.suspended);
  };

  const submitDismiss = async () => {
    if (!dismissing) return;
    if (note.trim().length > MODERATION_NOTE_MAX)
      return setDismissError(`メモは${MODERATION_NOTE_MAX}文字以内で入力してください。`);
    const ok = await run(
      () => dismiss.mutateAsync({ id: dismissing.id, ...(note.trim() ? { note } : {}) }),
      MODERATION_TEXT.dismissed,
    );
    if (ok) setDismissing(null);
  };

  const data = queue.data;
  const reports = data?.reports ?? [];
  const busy = dismiss.isPending || remove.isPending || suspend.isPending;
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>通報の確認</Title>
        <Text size="sm" c="dimmed">
          会員からの報告を古い順に表示します。18歳未満の利用や売買春の勧誘など、法令・規約に反する内容は削除してください。
        </Text>
      </div>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <SegmentedControl
          aria-label="状態で絞り込み"
          value={status}
          onChange={(v) => {
            setStatus(v as ReportStatus);
            setPage(1);
          }}
          data={REPORT_STATUSES.map((s) => ({ value: s, label: REPORT_STATUS_LABELS[s] }))}
        />
        <Text size="sm" c="dimmed" data-testid="report-total">
          {data ? countLabel(data.total, data.totalCapped) : "—"}
        </Text>
      </Group>
      <ListStates
        isLoading={queue.isLoading}
        isError={queue.isError}
        errorText={MODERATION_TEXT.failed}
        onRetry={() => void queue.refetch()}
        isEmpty={reports.length === 0}
        emptyText={status === "open" ? "未対応の報告はありません。" : "該当する報告はありません。"}
      >
        <Stack gap="sm" data-testid="report-list">
          {reports.map((r) => (
            <ReportCard
              key={r.id}
              report={r}
              busy={busy}
              onDismiss={() => {
                setNote("");
                setDismissError(null);
                setDismissing(r);
              }}
              onRemove={() => void askRemove(r)}
              onSuspend={() => void askSuspend(r)}
            />
          ))}
        </Stack>
      </ListStates>
      {data && <PagePagination total={data.totalPages} value={page} onChange={setPage} names="none" />}
      <Modal opened={dismissing !== null} onClose={() => setDismissing(null)} title="対応不要にする" centered>
        <Stack gap="sm">
          <Text size="sm">
            この報告を「対応不要」として閉じますか？報告者には「確認の結果、規約違反は確認されませんでした」と通知されます。
          </Text>
          <Textarea
            label="メモ（任意・報告者には表示されません）"
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            rows={3}
            resize="vertical"
          />
          <FormActions
            error={dismissError}
            onCancel={() => setDismissing(null)}
            onSubmit={() => void submitDismiss()}
            submitLabel="対応不要にする"
            loading={dismiss.isPending}
          />
        </Stack>
      </Modal>
    </Stack>
  );
}
