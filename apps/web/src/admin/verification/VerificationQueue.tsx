import { MSG, REJECT_REASON_MAX } from "@enmusubi/shared";
import { Alert, Badge, Button, Card, Group, Image, Loader, Modal, Stack, Text, Textarea, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RouterOutputs } from "../../lib/api-types";
import { confirmAction } from "../../lib/confirm";
import { displayName } from "../../lib/display-name";
import { formatDate, formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { PagePagination } from "../../ui/PagePagination";

/**
 * 年齢確認 (decision 0006): submissions waiting for review, oldest first; the ID image (fetched
 * per card, administrators only, never cached), the member's userID, name and the age from the
 * registered birthday to compare with the document; approve, or reject with a reason.
 */

type Entry = RouterOutputs["adminVerification"]["queue"]["entries"][number];

const GENDER = { male: "男性", female: "女性" } as const;

function IdImage({ entry }: { entry: Entry }) {
  const trpc = useTRPC();
  const image = useQuery({
    ...trpc.adminVerification.image.queryOptions({ id: entry.id }),
    enabled: entry.hasImage,
    // The image is not kept around longer than the screen needs it.
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
  if (!entry.hasImage) {
    return (
      <Text size="sm" c="dimmed">
        画像は削除済みです（提出から24時間を過ぎました）。
      </Text>
    );
  }
  if (image.isLoading) {
    return (
      <Group gap="xs" role="status">
        <Loader size="xs" aria-hidden />
        <Text size="sm">画像を読み込み中...</Text>
      </Group>
    );
  }
  if (image.isError || !image.data) {
    return (
      <Alert color="red" p="xs" role="alert">
        {errorMessage(image.error, "画像を取得できませんでした")}
        <Button size="xs" variant="white" color="red" ml="sm" onClick={() => void image.refetch()}>
          再試行
        </Button>
      </Alert>
    );
  }
  const name = entry.user.name?.trim() || entry.user.userID;
  return (
    <Image
      src={image.data.dataUrl}
      alt={`${name}さんが提出した身分証`}
      maw={480}
      radius="sm"
      fit="contain"
      data-testid="verification-image"
    />
  );
}

export function VerificationQueue() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const queue = useQuery(trpc.adminVerification.queue.queryOptions({ page }));
  const approve = useMutation(trpc.adminVerification.approve.mutationOptions());
  const reject = useMutation(trpc.adminVerification.reject.mutationOptions());
  const [rejecting, setRejecting] = useState<Entry | null>(null);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.adminVerification.queue.queryKey() });

  const onApprove = async (entry: Entry) => {
    const ok = await confirmAction({
      title: "年齢確認の承認",
      message: `${entry.user.name ?? entry.user.userID}（${entry.user.userID}）さんの年齢確認を承認します。身分証の画像は承認と同時に削除されます。`,
      confirmLabel: "承認する",
      danger: false,
    });
    if (!ok) return;
    approve.mutate(
      { id: entry.id },
      {
        onSuccess: () => {
          notifications.show({ color: "green", message: MSG.verificationApproved });
          void refresh();
        },
        onError: (error) => {
          notifications.show({ color: "red", message: errorMessage(error, "承認に失敗しました") });
          void refresh();
        },
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
        提出の古い順に表示しています。身分証の生年月日と登録された年齢を照合してください。画像は審査と同時に削除されます。
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
          <Card
            key={entry.id}
            withBorder
            padding="md"
            component="article"
            aria-label={`${entry.user.name ?? entry.user.userID}さんの申請`}
            data-testid="verification-entry"
          >
            <Stack gap="sm">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Group gap="xs" wrap="wrap">
                  <Text fw={700}>{displayName(entry.user)}</Text>
                  <Badge variant="light" color="gray" tt="none">
                    {entry.user.userID}
                  </Badge>
                  <Text size="sm">{GENDER[entry.user.gender]}</Text>
                </Group>
                <Text size="sm" c="dimmed">
                  提出：{formatDateTime(entry.submittedAt)}
                </Text>
              </Group>
              <Text size="sm">
                登録の生年月日：{entry.user.birthday ? formatDate(entry.user.birthday) : "未登録"}
                {entry.user.age !== null && (
                  <Text span fw={700} c={entry.user.age < 18 ? "red" : undefined}>
                    {" "}
                    （{entry.user.age}歳）
                  </Text>
                )}
              </Text>
              <IdImage entry={entry} />
              <Group gap="sm" justify="flex-end">
                <Button
                  color="red"
                  variant="light"
                  onClick={() => openReject(entry)}
                  disabled={approve.isPending && approve.variables?.id === entry.id}
                >
                  却下する
                </Button>
                <Button
                  onClick={() => void onApprove(entry)}
                  loading={approve.isPending && approve.variables?.id === entry.id}
                  disabled={!entry.hasImage}
                >
                  承認する
                </Button>
              </Group>
            </Stack>
          </Card>
        ))}
        {data && <PagePagination total={data.totalPages} value={page} onChange={setPage} names="none" />}
      </ListStates>
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
