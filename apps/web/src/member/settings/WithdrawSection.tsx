import { LEGAL, MSG } from "@enmusubi/shared";
import { Alert, Button, Group, List, Modal, PasswordInput, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router-dom";
import { formatPoints } from "../../lib/format";
import { clearSession } from "../../lib/session";
import { errorMessage, useTRPC } from "../../lib/trpc";

/**
 * 退会 (decision 0034), a self-contained section of the settings screen: the member
 * enters the password, then a confirmation names what is lost (the balance, purchased and free
 * points apart: unused points are forfeited, as the terms say) and what is kept (account data
 * LEGAL.accountRetentionYears year, usage history LEGAL.usageHistoryRetentionYears years, as the
 * privacy policy says). Once withdrawn the session ends and the login screen says so.
 */
export function WithdrawSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const preview = useQuery({ ...trpc.account.withdrawalPreview.queryOptions(), enabled: confirming });
  const withdraw = useMutation(trpc.account.withdraw.mutationOptions());
  const confirm = () =>
    withdraw.mutate(
      { password },
      {
        onSuccess: (result) => {
          clearSession();
          queryClient.clear();
          navigate("/login", { replace: true, state: { notice: result.message } });
        },
        onError: (err) => {
          setConfirming(false);
          setError(errorMessage(err, MSG.genericErrorDot));
        },
      },
    );
  const open = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!password) return setError(MSG.withdrawPasswordRequired);
    setConfirming(true);
  };
  const lost = preview.data;
  return (
    <Stack gap="sm" component="section" aria-labelledby="withdraw-heading">
      <Title order={3} size="h4" id="withdraw-heading">
        退会
      </Title>
      <Text size="sm">
        退会すると、ログインできなくなり、プロフィール・掲示板の投稿は他の会員から見えなくなります。送信済みのメッセージの送信者は「退会したユーザー」と表示されます。
      </Text>
      <form onSubmit={open} noValidate>
        <Stack gap="sm" maw={420}>
          <PasswordInput
            label="パスワード"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={error}
            required
          />
          <Group>
            <Button type="submit" color="red" variant="outline">
              退会する
            </Button>
          </Group>
        </Stack>
      </form>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="退会の確認" centered>
        <Stack gap="sm">
          <Text fw={700}>退会すると、次のポイントは失効し、払い戻しはできません。</Text>
          {lost ? (
            <List size="sm" data-testid="withdraw-lost">
              <List.Item>購入ポイント：{formatPoints(lost.purchased)}</List.Item>
              <List.Item>無料ポイント：{formatPoints(lost.free)}</List.Item>
              {lost.sendPoints > 0 && <List.Item>送信ポイント：{formatPoints(lost.sendPoints)}</List.Item>}
            </List>
          ) : (
            <Text size="sm" c="dimmed">
              所持ポイントを確認しています...
            </Text>
          )}
          <Text size="sm">
            プライバシーポリシーに基づき、アカウント情報は退会後{LEGAL.accountRetentionYears}
            年間保存した後に削除し、メッセージ・ポイントの利用履歴は{LEGAL.usageHistoryRetentionYears}
            年間保存します。同じメールアドレスで新たに登録することはできます。
          </Text>
          <Alert color="red" variant="light">
            この操作は取り消せません。本当に退会しますか？
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              キャンセル
            </Button>
            <Button color="red" loading={withdraw.isPending} disabled={!lost} onClick={confirm}>
              退会する
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
