import { FREE_POINT_VALIDITY_DAYS, POINT_VALIDITY_YEARS } from "@enmusubi/shared";
import { Card, Group, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import type { RouterOutputs } from "../lib/api-types";
import { formatPoints } from "../lib/format";
import { useTRPC } from "../lib/trpc";

type ExpiryDay = RouterOutputs["account"]["pointBalance"]["schedule"][number];

/** A Japanese calendar day `yyyy-mm-dd` as 2027年5月25日 (the day itself, whatever the browser's zone). */
export function dayText(day: string): string {
  const [y, m, d] = day.split("-");
  return `${y}年${Number(m)}月${Number(d)}日`;
}

/** What each kind of point is and how long it lasts (the terms, 特商法 and the points usage notes say the same). */
export const VALIDITY_NOTE = `購入ポイントの有効期限は購入日から${POINT_VALIDITY_YEARS}年間、無料ポイント（登録特典・運営からの付与）の有効期限は付与日から${FREE_POINT_VALIDITY_DAYS}日間です。期限を過ぎたポイントは失効します。`;

const amountText = (day: ExpiryDay) =>
  [day.purchased > 0 && `購入 ${formatPoints(day.purchased)}`, day.free > 0 && `無料 ${formatPoints(day.free)}`]
    .filter(Boolean)
    .join("・");

/**
 * The balance by expiry (decision 0034): purchased and free points apart, the next expiry date and
 * amount; `schedule` also lists the following expiry days (the points usage screen).
 *
 * The card is drawn whole while its figures load: the heading and the note at once, the figures'
 * lines under skeletons of their own size, so nothing below moves when they come (Lighthouse's
 * CLS on the dashboard) and the note, the largest text there, paints with the page (its LCP).
 */
export function PointExpiry({ schedule = false }: { schedule?: boolean }) {
  const trpc = useTRPC();
  const balance = useQuery(trpc.account.pointBalance.queryOptions());
  const data = balance.data;
  return (
    <Card withBorder padding="md" aria-busy={!data} data-testid={data ? "point-expiry" : undefined}>
      <Stack gap="xs">
        <Title order={3} size="h4">
          ポイントの有効期限
        </Title>
        {data ? <Figures data={data} schedule={schedule} /> : <FiguresLoading />}
        <Text size="sm" c="dimmed">
          {VALIDITY_NOTE}
        </Text>
      </Stack>
    </Card>
  );
}

/** Lines as long as the figures' usual ones, hidden under skeletons: the card's height when they come. */
function FiguresLoading() {
  return (
    <>
      <Skeleton visible aria-hidden="true">
        <Text>購入ポイント 0pt　無料ポイント 0pt</Text>
      </Skeleton>
      <Skeleton visible aria-hidden="true">
        <Text>次の有効期限：2000年10月10日に100pt（無料 100pt）が失効します。</Text>
      </Skeleton>
    </>
  );
}

function Figures({ data, schedule }: { data: RouterOutputs["account"]["pointBalance"]; schedule: boolean }) {
  const next = data.nextExpiry;
  return (
    <>
      <Group gap="lg">
        <Text>
          購入ポイント <strong data-testid="points-purchased">{formatPoints(data.purchased)}</strong>
        </Text>
        <Text>
          無料ポイント <strong data-testid="points-free">{formatPoints(data.free)}</strong>
        </Text>
      </Group>
      {next ? (
        <Text data-testid="next-expiry">
          次の有効期限：<strong>{dayText(next.day)}</strong>に{formatPoints(next.purchased + next.free)}（
          {amountText(next)}）が失効します。
        </Text>
      ) : (
        <Text c="dimmed">有効期限が近いポイントはありません。</Text>
      )}
      {schedule && data.schedule.length > 1 && (
        <Table aria-label="有効期限ごとのポイント" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>有効期限</Table.Th>
              <Table.Th ta="right">購入ポイント</Table.Th>
              <Table.Th ta="right">無料ポイント</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.schedule.map((day) => (
              <Table.Tr key={day.day}>
                <Table.Td>{dayText(day.day)}</Table.Td>
                <Table.Td ta="right">{formatPoints(day.purchased)}</Table.Td>
                <Table.Td ta="right">{formatPoints(day.free)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </>
  );
}
