import { type BonusRule, decideBonus, type PaymentMethod } from "@enmusubi/shared";
import { Checkbox, Group, Select, Stack, Table, Text, Title } from "@mantine/core";
import { useState } from "react";
import { bonusBadge } from "../../features/payments/bonus-text";
import { pointsFor, pointsText, yen } from "../../features/payments/calc";
import { METHOD_LABELS } from "../../features/payments/StatusBadge";
import type { RouterOutputs } from "../../lib/api-types";
import { ADMIN_BONUS_TEXT as T } from "./bonus-text";

type Data = RouterOutputs["adminPayments"]["bonusRules"];

/**
 * What the purchase screen's packs would show with the rules being edited and the campaigns of
 * the moment: the one rule (`decideBonus`, the server's) over the draft, for a method and for a
 * member buying for the first time or not.
 */
export function BonusPreview({ data, draft }: { data: Data; draft: BonusRule[] }) {
  const [method, setMethod] = useState<PaymentMethod>(data.methods[0]?.method ?? "smart_pit");
  const [first, setFirst] = useState(true);
  const at = new Date(data.now);
  const campaigns: BonusRule[] = data.campaigns
    .filter((c) => c.state === "running")
    .map((c) => ({
      id: c.id,
      kind: "campaign",
      name: c.name,
      paymentMethod: c.paymentMethod,
      minAmount: 0,
      ratePercent: c.ratePercent,
      fixedPoints: c.fixedPoints,
      startsAt: new Date(c.startsAt),
      endsAt: new Date(c.endsAt),
    }));
  const packs = data.packs.filter((p) => p >= data.minimumPurchase && p <= data.maximumPurchase);
  return (
    <Stack gap="sm">
      <Title order={3} size="h4" id="bonus-preview-heading">
        {T.previewHeading}
      </Title>
      <Group gap="md" align="flex-end">
        <Select
          label={T.previewMethod}
          w={240}
          allowDeselect={false}
          value={method}
          onChange={(v) => v && setMethod(v as PaymentMethod)}
          data={data.methods.map((m) => ({ value: m.method, label: METHOD_LABELS[m.method] }))}
        />
        <Checkbox label={T.previewFirst} checked={first} onChange={(e) => setFirst(e.currentTarget.checked)} />
      </Group>
      <Table.ScrollContainer minWidth={520}>
        <Table striped aria-labelledby="bonus-preview-heading" data-testid="bonus-preview">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>パック</Table.Th>
              <Table.Th ta="right">購入ポイント</Table.Th>
              <Table.Th>ボーナス</Table.Th>
              <Table.Th ta="right">合計</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {packs.map((amount) => {
              const points = pointsFor(amount, data.exchange);
              const bonus = decideBonus([...draft, ...campaigns], {
                amount,
                points,
                paymentMethod: method,
                at,
                firstPurchase: first,
              });
              return (
                <Table.Tr key={amount} data-testid="bonus-preview-row">
                  <Table.Td>{yen(amount)}</Table.Td>
                  <Table.Td ta="right">{pointsText(points)}</Table.Td>
                  <Table.Td>
                    {bonus.points > 0 ? (
                      <Stack gap={0}>
                        <Text size="sm" fw={700} c="pink.8">
                          {bonusBadge(bonus.points)}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {bonus.items.map((i) => `${i.label} ${pointsText(i.points)}`).join("・")}
                        </Text>
                      </Stack>
                    ) : (
                      "—"
                    )}
                  </Table.Td>
                  <Table.Td ta="right">{pointsText(points + bonus.points)}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
