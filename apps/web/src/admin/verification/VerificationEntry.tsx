import { ID_IMAGE_RETENTION_HOURS } from "@enmusubi/shared";
import { Alert, Badge, Button, Card, Group, Image, Loader, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { RouterOutputs } from "../../lib/api-types";
import { displayName } from "../../lib/display-name";
import { formatDate, formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";

export type Entry = RouterOutputs["adminVerification"]["queue"]["entries"][number];

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
        画像は削除済みです（提出から{ID_IMAGE_RETENTION_HOURS}時間を過ぎました）。
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
      data-graphic="photo"
    />
  );
}

/**
 * One submission: the member's name, userID and gender, when it came, the registered birthday and
 * age (red under 18), the ID image, and 却下する / 承認する (承認 needs the image).
 */
export function VerificationEntry({
  entry,
  approving,
  onApprove,
  onReject,
}: {
  entry: Entry;
  approving: boolean;
  onApprove(): void;
  onReject(): void;
}) {
  return (
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
          <Button color="red" variant="light" onClick={onReject} disabled={approving}>
            却下する
          </Button>
          <Button onClick={onApprove} loading={approving} disabled={!entry.hasImage}>
            承認する
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
