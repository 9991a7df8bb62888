import { MSG, type VerificationStatus } from "@enmusubi/shared";
import { Alert, Anchor, Badge, Button, Card, FileButton, Group, Image, List, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { fileToJpeg, ImageError } from "../../features/photos/image";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { VERIFICATION_TEXT } from "./text";
import { useVerificationStatus } from "./useVerificationStatus";

const STATUS_COLOR: Record<VerificationStatus, string> = {
  unverified: "gray",
  pending: "blue",
  verified: "green",
  rejected: "red",
};

/**
 * 年齢確認 (/user/verification; decision 0006): why (the law), which documents, the current
 * status with a rejection's reason, and the upload with a preview while unverified or rejected.
 */
export function VerificationPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useVerificationStatus();
  const [image, setImage] = useState<string | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const submit = useMutation(trpc.verification.submit.mutationOptions());

  const pick = async (file: File | null) => {
    if (!file) return;
    setPickError(null);
    setReading(true);
    try {
      setImage(await fileToJpeg(file));
    } catch (e) {
      setPickError(e instanceof ImageError ? e.message : MSG.fileReadFailed);
    } finally {
      setReading(false);
    }
  };

  const send = () => {
    if (!image) return;
    submit.mutate(
      { image },
      {
        onSuccess: () => {
          setImage(null);
          notifications.show({ color: "green", message: MSG.verificationSubmitted });
          void queryClient.invalidateQueries({ queryKey: trpc.verification.status.queryKey() });
        },
        onError: (error) => setPickError(errorMessage(error, MSG.photoUploadFailed)),
      },
    );
  };

  const data = status.data;
  const canSubmit = data?.status === "unverified" || data?.status === "rejected";

  return (
    <Stack gap="md" maw={760}>
      <Title order={2}>年齢確認</Title>
      <Card withBorder padding="md">
        <Stack gap="xs">
          <Title order={3} size="h5">
            なぜ年齢確認が必要なのですか
          </Title>
          <Text size="sm">{VERIFICATION_TEXT.law}</Text>
          <Anchor component={Link} to="/legal/age-verification" size="sm">
            年齢確認について（詳しい説明）
          </Anchor>
        </Stack>
      </Card>

      <Card withBorder padding="md" aria-labelledby="verification-status-title">
        <Stack gap="xs">
          <Title order={3} size="h5" id="verification-status-title">
            現在の状況
          </Title>
          <ListStates
            isLoading={status.isLoading}
            isError={status.isError}
            error={status.error}
            errorText="年齢確認の状況を取得できませんでした"
            onRetry={() => void status.refetch()}
            isEmpty={false}
            emptyText=""
          >
            {data && (
              <Stack gap={6} data-testid="verification-status" data-status={data.status}>
                <Group gap="xs">
                  <Badge color={STATUS_COLOR[data.status]} size="lg" variant="light">
                    {VERIFICATION_TEXT.statuses[data.status]}
                  </Badge>
                  {data.submittedAt && (
                    <Text size="sm" c="dimmed">
                      提出日時：{formatDateTime(data.submittedAt)}
                    </Text>
                  )}
                </Group>
                {data.status === "pending" && <Text size="sm">{VERIFICATION_TEXT.pending}</Text>}
                {data.status === "verified" && (
                  <Text size="sm">
                    年齢確認は完了しています（{formatDateTime(data.verifiedAt)}）。すべての機能をご利用いただけます。
                  </Text>
                )}
                {data.status === "rejected" && (
                  <Alert color="red" variant="light" title="年齢確認が完了しませんでした">
                    <Text size="sm">理由：{data.rejectReason ?? "—"}</Text>
                    <Text size="sm" mt={4}>
                      内容をご確認のうえ、もう一度提出してください。
                    </Text>
                  </Alert>
                )}
              </Stack>
            )}
          </ListStates>
        </Stack>
      </Card>

      {canSubmit && (
        <Card withBorder padding="md">
          <Stack gap="sm">
            <Title order={3} size="h5">
              {data?.status === "rejected" ? "身分証をもう一度提出する" : "身分証を提出する"}
            </Title>
            <Text size="sm">生年月日が確認できる、次のいずれかの身分証を撮影してアップロードしてください。</Text>
            <List size="sm" spacing={2}>
              {VERIFICATION_TEXT.documents.map((d) => (
                <List.Item key={d}>{d}</List.Item>
              ))}
            </List>
            <Text size="sm" c="dimmed">
              {VERIFICATION_TEXT.masking}
            </Text>
            <Group gap="sm">
              <FileButton onChange={pick} accept="image/*">
                {(props) => (
                  <Button {...props} variant="light" loading={reading}>
                    {image ? "画像を選び直す" : "画像を選択"}
                  </Button>
                )}
              </FileButton>
              <Button onClick={send} disabled={!image} loading={submit.isPending} data-testid="verification-submit">
                提出する
              </Button>
            </Group>
            {image && (
              <Image
                src={image}
                alt="提出する身分証のプレビュー"
                maw={360}
                radius="sm"
                fit="contain"
                data-testid="verification-preview"
                data-graphic="photo"
              />
            )}
            {pickError && (
              <Alert color="red" p="xs" role="alert">
                {pickError}
              </Alert>
            )}
          </Stack>
        </Card>
      )}
    </Stack>
  );
}
