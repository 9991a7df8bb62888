import { ID_IMAGE_RETENTION_HOURS, MSG, type VerificationStatus } from "@enmusubi/shared";
import { Alert, Anchor, Badge, Button, Card, FileButton, Group, Image, List, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router-dom";
import { fileToJpeg, ImageError } from "../../features/photos/image";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { useVerificationStatus } from "./useVerificationStatus";

/**
 * 年齢確認 (/user/verification; decision 0006): why (the law), which documents, the current
 * status with a rejection's reason, and the upload with a preview while unverified or rejected.
 */

const STATUS_LABEL: Record<VerificationStatus, { label: string; color: string }> = {
  unverified: { label: "未提出", color: "gray" },
  pending: { label: "審査中", color: "blue" },
  verified: { label: "確認済み", color: "green" },
  rejected: { label: "再提出が必要です", color: "red" },
};

const DOCUMENTS = [
  "運転免許証",
  "マイナンバーカード（表面のみ。裏面の個人番号は送らないでください）",
  "パスポート",
  "健康保険証（記号・番号・保険者番号は隠してください）",
  "住民基本台帳カード、在留カードなど、生年月日の分かる公的な身分証",
];

const LAW_TEXT =
  "「インターネット異性紹介事業を利用して児童を誘引する行為の規制等に関する法律」（出会い系サイト規制法）第11条により、運営者は、会員がメッセージを送る・受け取る、掲示板を見る・書き込む前に、18歳以上であることを確認しなければなりません。年齢確認が終わるまで、これらの機能はご利用いただけません（運営からのお知らせはお読みいただけます）。";

const MASKING_TEXT = `生年月日・氏名・発行者以外の情報（本籍地・個人番号・記号番号など）は隠して撮影してください。画像は審査にのみ使い、審査が終わりしだい、遅くとも提出から${ID_IMAGE_RETENTION_HOURS}時間以内に削除します。運営者以外が見ることはありません。`;

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
          <Text size="sm">{LAW_TEXT}</Text>
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
                  <Badge color={STATUS_LABEL[data.status].color} size="lg" variant="light">
                    {STATUS_LABEL[data.status].label}
                  </Badge>
                  {data.submittedAt && (
                    <Text size="sm" c="dimmed">
                      提出日時：{formatDateTime(data.submittedAt)}
                    </Text>
                  )}
                </Group>
                {data.status === "pending" && (
                  <Text size="sm">
                    審査中です。通常{ID_IMAGE_RETENTION_HOURS}時間以内に結果をメールでお知らせします。
                  </Text>
                )}
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
              {DOCUMENTS.map((d) => (
                <List.Item key={d}>{d}</List.Item>
              ))}
            </List>
            <Text size="sm" c="dimmed">
              {MASKING_TEXT}
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
