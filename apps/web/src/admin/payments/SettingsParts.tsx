import { Alert, Button, Card, Group, Tabs } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { PAYMENTS_TEXT } from "../../features/payments/text";
import type { RouterOutputs } from "../../lib/api-types";
import { errorMessage, useTRPC } from "../../lib/trpc";

/** The settings as the admin screen reads them (adminPayments.getSettings). */
export type PaymentSettingsData = RouterOutputs["adminPayments"]["getSettings"];

/** One tab's save handlers: a notice, its own error; a save refreshes every screen that reads the settings. */
export function useSaveHandlers() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  return {
    error,
    handlers: {
      onSuccess: () => {
        notifications.show({ color: "green", message: PAYMENTS_TEXT.settingsSaved });
        setError(null);
        void queryClient.invalidateQueries({ queryKey: trpc.adminPayments.getSettings.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.purchase.settings.queryKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.legal.info.queryKey() });
      },
      onError: (e: unknown) => setError(errorMessage(e, PAYMENTS_TEXT.settingsSaveFailed)),
    },
  };
}

export function SaveRow({ pending, error, onSave }: { pending: boolean; error: string | null; onSave(): void }) {
  return (
    <>
      {error && (
        <Alert color="red" role="alert">
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={onSave} loading={pending}>
          保存する
        </Button>
      </Group>
    </>
  );
}

/**
 * Whether members are offered the method, as the server reckons it from the saved settings: a
 * method switched on with something missing is not offered, and this says what is missing.
 */
export function MethodStatus({ method }: { method: { isActive: boolean; usable?: boolean; missing?: string[] } }) {
  const missing = method.missing ?? [];
  if (method.isActive && missing.length === 0) {
    return (
      <Alert color="green" role="status" data-testid="method-status">
        有効：会員の購入画面に表示されています。
      </Alert>
    );
  }
  return (
    <Alert color={method.isActive ? "yellow" : "gray"} role="status" data-testid="method-status">
      {method.isActive ? "有効になっていますが、" : "無効です。"}
      {missing.length > 0
        ? `次の項目が未設定のため会員には表示されません：${missing.join("、")}`
        : "会員には表示されません。"}
    </Alert>
  );
}

export function Panel({ value, children }: { value: string; children: ReactNode }) {
  return (
    <Tabs.Panel value={value} pt="md">
      <Card withBorder padding="md">
        {children}
      </Card>
    </Tabs.Panel>
  );
}
