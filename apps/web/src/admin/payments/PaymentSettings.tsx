import { Stack, Tabs, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import { useTRPC } from "../../lib/trpc";
import { ListStates } from "../../ui/ListStates";
import { BankTab } from "./BankTab";
import { CardTab } from "./CardTab";
import { Panel } from "./SettingsParts";
import { ExchangeTab, GeneralTab, SmartPitTab } from "./SettingsTabs";
import { CARD_SETTINGS_TEXT } from "./text";

/**
 * Payment settings (spec §2 admin screen 4): 為替レート, SmartPit, クレジットカード (decision 0046), 銀行振込 (the spec's hidden tab,
 * shown here: bank transfer can be switched on) and 一般, each saved on its own with the §5
 * minimums. What is saved is what the purchase screen and the legal pages state.
 */
export function PaymentSettings() {
  const trpc = useTRPC();
  const settings = useQuery(trpc.adminPayments.getSettings.queryOptions());
  const data = settings.data;
  return (
    <Stack gap="md">
      <Title order={2}>決済設定</Title>
      <ListStates
        isLoading={settings.isLoading}
        isError={settings.isError}
        errorText={PAYMENTS_TEXT.settingsFetchFailed}
        onRetry={() => void settings.refetch()}
        isEmpty={false}
        emptyText=""
      >
        {data && (
          <Tabs defaultValue="exchange" keepMounted={false}>
            <Tabs.List>
              <Tabs.Tab value="exchange">為替レート</Tabs.Tab>
              <Tabs.Tab value="smartPit">SmartPit</Tabs.Tab>
              <Tabs.Tab value="card">{CARD_SETTINGS_TEXT.tab}</Tabs.Tab>
              <Tabs.Tab value="bank">銀行振込</Tabs.Tab>
              <Tabs.Tab value="general">一般</Tabs.Tab>
            </Tabs.List>
            <Panel value="exchange">
              <ExchangeTab initial={data.exchange} />
            </Panel>
            <Panel value="smartPit">
              <SmartPitTab initial={data.smartPit} />
            </Panel>
            <Panel value="card">
              <CardTab initial={data.card} />
            </Panel>
            <Panel value="bank">
              <BankTab initial={data.bank} />
            </Panel>
            <Panel value="general">
              <GeneralTab initial={data.general} />
            </Panel>
          </Tabs>
        )}
      </ListStates>
    </Stack>
  );
}
