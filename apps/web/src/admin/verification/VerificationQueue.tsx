import { MSG, REJECT_REASON_MAX } from "@enmusubi/shared";
import { Button, Group, Modal, Stack, Text, Textarea, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import { ApproveDialog } from "./ApproveDialog";
import { type Entry, VerificationEntry } from "./VerificationEntry";

/**
 * 年齢確認 (decision 0006): submissions waiting for review, oldest first; the ID image (fetched
 * per card, administrators only, never cached), the member's userID, name and the age from the
 * registered birthday to compare with the document; approve with the birth date read from the ID
 * (decision 0043), or reject with a reason.
 */
export function VerificationQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const queue = useQuery(trpc.adminVerification.queue.queryOptions({ page }));
  const approve = useMutation(trpc.adminVerification.approve.mutationOptions());
  const reject = useMutation(trpc.adminVerification.reject.mutationOptions());
  const [approving, setApproving] = useState<Entry | null>(null);
  const [approveError, setApproveError] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<Entry | null>(null);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.adminVerification.queue.queryKey() });

  const openApprove = (entry: Entry) => {
    setApproving(entry);
    setApproveError(null);
  };

  const onApprove = (birthday: string) => {
    if (!approving) return;
    approve.mutate(
      { id: approving.id, birthday },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: MSG.verificationApproved });
          setApproving(null);
          void refresh();
        },
        // A refusal (under 18, a day the server refuses) stays in the dialog; nothing changed.
        onError: (error) => setApproveError(errorMessage(error, "承認に失敗しました")),
      },
    );
  };

  const openReject = (entry: Entry) => {
    setRejecting(entry);
    setReason("");
    setReasonError(null);
  };

  const onReject = () => {
    if (!rejecting) return;
    const trimmed = reason.trim();
    if (!trimmed) return setReasonError(MSG.rejectReasonRequired);
    if (trimmed.length > REJECT_REASON_MAX) return setReasonError(MSG.rejectReasonTooLong);
    reject.mutate(
      { id: rejecting.id, reason: trimmed },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: MSG.verificationRejected });
          setRejecting(null);
          void refresh();
        },
        onError: (error) => setReasonError(errorMessage(error, "却下に失敗しました")),
      },
    );
  };

  const data = queue.data;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>年齢確認</Title>
        {data && <Text size="sm">審査待ち {data.total}件</Text>}
      </Group>
      <Text size="sm" c="dimmed">
        提出の古い順に表示しています。承認するときは身分証の生年月日を入力します（登録の生年月日があれば入力済みです）。画像は審査と同時に削除されます。
      </Text>
      <ListStates
        isLoading={queue.isLoading}
        isError={queue.isError}
        errorText="年齢確認の申請を取得できませんでした"
        onRetry={() => void queue.refetch()}
        isEmpty={(data?.entries.length ?? 0) === 0}
        emptyText="審査待ちの申請はありません"
      >
        {data?.entries.map((entry) => (
          <VerificationEntry
            key={entry.id}
            entry={entry}
            approving={approve.isPending && approve.variables?.id === entry.id}
            onApprove={() => openApprove(entry)}
            onReject={() => openReject(entry)}
          />
        ))}
        {data && <PagePagination total={data.totalPages} value={page} onChange={setPage} names="none" />}
      </ListStates>
      <ApproveDialog
        entry={approving}
        pending={approve.isPending}
        serverError={approveError}
        onClose={() => setApproving(null)}
        onApprove={onApprove}
      />
      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title="年齢確認の却下" centered>
        <Stack gap="sm">
          <Text size="sm">却下の理由は会員に表示され、メールでも送られます。会員はもう一度提出できます。</Text>
          <Textarea
            label="却下の理由"
            required
            rows={4}
            maxLength={REJECT_REASON_MAX + 100}
            value={reason}
            onChange={(e) => {
              setReason(e.currentTarget.value);
              setReasonError(null);
            }}
            error={reasonError}
            description={`${reason.trim().length} / ${REJECT_REASON_MAX}文字`}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setRejecting(null)}>
              キャンセル
            </Button>
            <Button color="red" onClick={onReject} loading={reject.isPending}>
              却下する
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
