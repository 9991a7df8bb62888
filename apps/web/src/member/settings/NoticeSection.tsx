import { MSG } from "@enmusubi/shared";
import { Card, Stack, Switch, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { errorMessage, useTRPC } from "../../lib/trpc";

/** メール受信通知 (decision 0033): on by default; at most one mail per 15 minutes, never the body. */
export function NoticeSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const setting = useQuery(trpc.account.noticeSetting.queryOptions());
  const change = useMutation(
    trpc.account.setNoticeSetting.mutationOptions({
      onSuccess: (result) => {
        queryClient.setQueryData(trpc.account.noticeSetting.queryKey(), { enabled: result.enabled });
        notifications.show({ color: "green", message: result.message });
      },
      onError: (e) => notifications.show({ color: "red", message: errorMessage(e, MSG.genericError) }),
    }),
  );
  return (
    <Card withBorder component="section" aria-labelledby="settings-notice-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="settings-notice-title">
          メール受信通知
        </Title>
        <Text size="sm" c="dimmed">
          メッセージが届いたとき、送信者のニックネームをメールでお知らせします（本文は含みません）。通知は15分に1回までで、サイトをご覧の間はお送りしません。
        </Text>
        <Switch
          label="新着メッセージをメールで通知する"
          checked={setting.data?.enabled ?? true}
          disabled={setting.isPending || change.isPending}
          onChange={(e) => change.mutate({ enabled: e.currentTarget.checked })}
        />
      </Stack>
    </Card>
  );
}
