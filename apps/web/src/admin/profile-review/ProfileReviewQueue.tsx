import { MSG, PROFILE_REJECT_NOTE_MAX, PROFILE_REJECT_REASONS, type ProfileRejectReason } from "@enmusubi/shared";
import { Button, Group, Modal, Radio, Stack, Text, Textarea, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { displayName } from "../../lib/display-name";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";
import { ProfileReviewEntry, type ReviewEntry } from "./ProfileReviewEntry";

/**
 * 「プロフィール審査」 (decision 0044): members' new photos and changed 自己紹介, oldest first, the
 * current (approved) version beside the new one; approve, or reject with a reason from the list
 * (and a note, required with その他). Other members see the new version only once approved.
 */
export function ProfileReviewQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const queue = useQuery(trpc.adminProfileReview.queue.queryOptions({ page }));
  const approve = useMutation(trpc.adminProfileReview.approve.mutationOptions());
  const reject = useMutation(trpc.adminProfileReview.reject.mutationOptions());
  const [rejecting, setRejecting] = useState<ReviewEntry | null>(null);
  const [reason, setReason] = useState<ProfileRejectReason | null>(null);
  const [note, setNote] = useState("");
  const [error, setError] = useState<string | null>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.adminProfileReview.queue.queryKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.adminDashboard.waiting.queryKey() }),
    ]);

  const onApprove = (entry: ReviewEntry) =>
    approve.mutate(
      { id: entry.id },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: MSG.profileReviewApproved });
          void refresh();
        },
        onError: (e) => {
          notifications.show({ color: "red", message: errorMessage(e, "承認に失敗しました") });
          void refresh();
        },
      },
    );

  const openReject = (entry: ReviewEntry) => {
    setRejecting(entry);
    setReason(entry.kind === "photo" ? "photo_unsuitable" : null);
    setNote("");
    setError(null);
  };

  const onReject = () => {
    if (!rejecting) return;
    if (!reason) return setError(MSG.profileRejectReasonRequired);
    const trimmed = note.trim();
    if (reason === "other" && !trimmed) return setError(MSG.profileRejectNoteRequired);
    if (trimmed.length > PROFILE_REJECT_NOTE_MAX) return setError(MSG.profileRejectNoteTooLong);
    reject.mutate(
      { id: rejecting.id, reason, note: trimmed },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: MSG.profileReviewRejected });
          setRejecting(null);
          void refresh();
        },
        onError: (e) => setError(errorMessage(e, "却下に失敗しました")),
      },
    );
  };

  const data = queue.data;
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>プロフィール審査</Title>
        {data && <Text size="sm">審査待ち {data.total}件</Text>}
      </Group>
      <Text size="sm" c="dimmed">
        会員が変更した写真と自己紹介を、変更の古い順に表示しています。承認するまで、ほかの会員には現在の内容が表示されます。
      </Text>
      <ListStates
        isLoading={queue.isLoading}
        isError={queue.isError}
        errorText="審査待ちの変更を取得できませんでした"
        onRetry={() => void queue.refetch()}
        isEmpty={(data?.entries.length ?? 0) === 0}
        emptyText="審査待ちの変更はありません"
      >
        {data?.entries.map((entry) => (
          <ProfileReviewEntry
            key={entry.id}
            entry={entry}
            approving={approve.isPending && approve.variables?.id === entry.id}
            onApprove={() => onApprove(entry)}
            onReject={() => openReject(entry)}
          />
        ))}
        {data && <PagePagination total={data.totalPages} value={page} onChange={setPage} names="none" />}
      </ListStates>
      <Modal opened={rejecting !== null} onClose={() => setRejecting(null)} title="変更の却下" centered>
        <Stack gap="sm">
          <Text size="sm">
            {rejecting ? `${displayName(rejecting.user)}さんの変更を却下します。` : ""}
            理由は会員の画面に表示され、メールでも送られます。ほかの会員には現在の内容が表示されたままです。
          </Text>
          <Radio.Group
            label="却下の理由"
            withAsterisk
            value={reason}
            onChange={(v) => {
              setReason(v as ProfileRejectReason);
              setError(null);
            }}
          >
            <Stack gap="xs" mt="xs">
              {PROFILE_REJECT_REASONS.map((r) => (
                <Radio key={r.value} value={r.value} label={r.label} />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea
            label="補足（会員に表示されます）"
            description={reason === "other" ? "「その他」を選んだ場合は入力してください" : "任意"}
            rows={3}
            value={note}
            onChange={(e) => {
              setNote(e.currentTarget.value);
              setError(null);
            }}
          />
          {error && (
            <Text size="sm" c="red" role="alert">
              {error}
            </Text>
          )}
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
