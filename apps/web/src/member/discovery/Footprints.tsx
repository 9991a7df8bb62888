import { Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { formatDateTime, formatPoints } from "../../lib/format";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { ProfileDetailModal } from "./ProfileDetailModal";
import { ProfilePhoto } from "./ProfilePhoto";
import { DISCOVERY_TEXT } from "./text";
import { displayName, summaryLine } from "./types";
import { usePaidProfileView } from "./usePaidView";

/** 足あと: who viewed my profile, newest first (free to see); each opens their profile (a paid view). */
export function Footprints() {
  const trpc = useTRPC();
  const footprints = useQuery(trpc.members.footprints.queryOptions());
  const paid = usePaidProfileView();
  const rows = footprints.data ?? [];

  return (
    <Stack gap="md">
      <Title order={2}>足あと</Title>
      <Text size="sm" c="dimmed">
        あなたのプロフィールを見た会員です（新しい順）。相手のプロフィールの閲覧には
        {paid.cost > 0 ? formatPoints(paid.cost) : "ポイント"}が必要です。
      </Text>
      <ListStates
        isLoading={footprints.isLoading}
        isError={footprints.isError}
        error={footprints.error}
        errorText={DISCOVERY_TEXT.footprintsFailed}
        onRetry={() => void footprints.refetch()}
        isEmpty={rows.length === 0}
        emptyText="まだ足あとはありません。"
      >
        <Stack gap="xs" data-testid="footprint-list">
          {rows.map(({ viewer, viewedAt }) => {
            const name = displayName(viewer);
            return (
              <Card key={`${viewer.id}-${String(viewedAt)}`} withBorder padding="sm" data-testid="footprint">
                <Group justify="space-between" gap="sm" wrap="wrap">
                  <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: "1 1 200px" }}>
                    <ProfilePhoto profile={viewer} size={48} radius={24} />
                    <Stack gap={0} style={{ minWidth: 0 }}>
                      <Text fw={600} truncate>
                        {name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {summaryLine(viewer)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {formatDateTime(viewedAt)}
                      </Text>
                    </Stack>
                  </Group>
                  <Button
                    variant="light"
                    onClick={() => void paid.open(viewer.id)}
                    loading={paid.pendingId === viewer.id}
                    aria-label={`${name}さんのプロフィールを見る`}
                  >
                    プロフィールを見る
                  </Button>
                </Group>
              </Card>
            );
          })}
        </Stack>
      </ListStates>
      <ProfileDetailModal profile={paid.shown} onClose={paid.close} />
    </Stack>
  );
}
