import { Badge, Box, Button, Card, Group, Image, SimpleGrid, Stack, Text } from "@mantine/core";
import type { RouterOutputs } from "../../lib/api-types";
import { displayName } from "../../lib/display-name";
import { formatDateTime } from "../../lib/format";

export type ReviewEntry = RouterOutputs["adminProfileReview"]["queue"]["entries"][number];

const GENDER = { male: "男性", female: "女性" } as const;
const KIND = { photo: "プロフィール写真", introduction: "自己紹介" } as const;

/** One side of the comparison: the photo (or 写真なし) or the 自己紹介 (or 未記入). */
function Version({ entry, side }: { entry: ReviewEntry; side: "current" | "proposed" }) {
  const version = entry[side];
  const label = side === "current" ? "現在（公開中）" : "新しい内容（審査中）";
  const name = entry.user.name?.trim() || entry.user.userID;
  return (
    <Stack gap={4} data-testid={`review-${side}`}>
      <Text size="sm" fw={700} c={side === "proposed" ? "pink.8" : undefined}>
        {label}
      </Text>
      {entry.kind === "photo" ? (
        version.photoUrl ? (
          <Image
            src={version.photoUrl}
            alt={`${name}さんの${side === "current" ? "現在の" : "新しい"}写真`}
            maw={320}
            mah={320}
            fit="contain"
            radius="sm"
            data-graphic="photo"
          />
        ) : (
          <Text size="sm" c="dimmed">
            写真なし
          </Text>
        )
      ) : (
        <Box
          p="xs"
          style={{
            whiteSpace: "pre-wrap",
            overflowWrap: "anywhere",
            border: "1px solid var(--mantine-color-gray-3)",
            borderRadius: 4,
          }}
        >
          <Text size="sm">{version.introduction || "（未記入）"}</Text>
        </Box>
      )}
    </Stack>
  );
}

/**
 * One change waiting: the member, what it is and when it came, the current (approved) version
 * beside the new one, and 却下する / 承認する.
 */
export function ProfileReviewEntry({
  entry,
  approving,
  onApprove,
  onReject,
}: {
  entry: ReviewEntry;
  approving: boolean;
  onApprove(): void;
  onReject(): void;
}) {
  return (
    <Card
      withBorder
      padding="md"
      component="article"
      aria-label={`${displayName(entry.user)}さんの${KIND[entry.kind]}の変更`}
      data-testid="profile-review-entry"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            <Badge color={entry.kind === "photo" ? "grape" : "blue"} variant="light">
              {KIND[entry.kind]}
            </Badge>
            <Text fw={700}>{displayName(entry.user)}</Text>
            <Badge variant="light" color="gray" tt="none">
              {entry.user.userID}
            </Badge>
            <Text size="sm">
              {GENDER[entry.user.gender]}
              {entry.user.age !== null && `・${entry.user.age}歳`}
            </Text>
          </Group>
          <Text size="sm" c="dimmed">
            変更：{formatDateTime(entry.submittedAt)}
          </Text>
        </Group>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Version entry={entry} side="current" />
          <Version entry={entry} side="proposed" />
        </SimpleGrid>
        <Group gap="sm" justify="flex-end">
          <Button color="red" variant="light" onClick={onReject} disabled={approving}>
            却下する
          </Button>
          <Button onClick={onApprove} loading={approving}>
            承認する
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
