import { ADMIN_USER_PAGE_SIZE, MSG } from "@enmusubi/shared";
import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RouterOutputs } from "../../lib/api-types";
import { confirmAction } from "../../lib/confirm";
import { formatDate, formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { PagePagination } from "../../ui/PagePagination";

type Withdrawn = RouterOutputs["adminUsers"]["withdrawn"]["users"][number];

/**
 * Withdrawn members (退会, decision 0034) in user management: who left and when, until
 * when the account is kept; an administrator restores one within that time (audited; their
 * forfeited balance comes back). Read only when opened.
 */
export function WithdrawnMembers({ onRestored }: { onRestored(): void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [shown, setShown] = useState(false);
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...trpc.adminUsers.withdrawn.queryOptions({ page, pageSize: ADMIN_USER_PAGE_SIZE }),
    enabled: shown,
    placeholderData: keepPreviousData,
  });
  const restore = useMutation(
    trpc.adminUsers.restore.mutationOptions({
      onSuccess: (result) => {
        notifications.show({ color: "green", message: result.message });
        void queryClient.invalidateQueries({ queryKey: trpc.adminUsers.withdrawn.pathKey() });
        onRestored();
      },
      onError: (error) => notifications.show({ color: "red", message: errorMessage(error, MSG.genericErrorDot) }),
    }),
  );
  const askRestore = async (user: Withdrawn) => {
    const ok = await confirmAction({
      title: "退会した会員の復元",
      message: `${user.name ?? user.userID}（${user.userID}）を復元しますか？ログインできるようになり、退会時に失効したポイントも戻ります。`,
      confirmLabel: "復元する",
      danger: false,
    });
    if (ok) restore.mutate({ id: user.id });
  };
  return (
    <Paper withBorder p="sm">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4" id="withdrawn-heading">
            退会した会員
          </Title>
          <Button variant="subtle" size="compact-sm" onClick={() => setShown((v) => !v)} aria-expanded={shown}>
            {shown ? "閉じる" : "表示する"}
          </Button>
        </Group>
        {shown && list.isError && (
          <Alert color="red" role="alert">
            {errorMessage(list.error, MSG.genericErrorDot)}
          </Alert>
        )}
        {shown && list.data && list.data.users.length === 0 && <Text c="dimmed">退会した会員はいません。</Text>}
        {shown && list.data && list.data.users.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table aria-labelledby="withdrawn-heading" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>ユーザーID</Table.Th>
                  <Table.Th>名前</Table.Th>
                  <Table.Th>退会日時</Table.Th>
                  <Table.Th>保存期限</Table.Th>
                  <Table.Th>操作</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.users.map((user) => (
                  <Table.Tr key={user.id} data-testid={`withdrawn-${user.userID}`}>
                    <Table.Td>{user.userID}</Table.Td>
                    <Table.Td>{user.name ?? "—"}</Table.Td>
                    <Table.Td>{formatDateTime(user.withdrawnAt)}</Table.Td>
                    <Table.Td>
                      {user.personalDataDeletedAt ? "個人情報削除済み" : formatDate(user.retainedUntil)}
                    </Table.Td>
                    <Table.Td>
                      {user.restorable ? (
                        <Button
                          size="compact-sm"
                          variant="light"
                          loading={restore.isPending && restore.variables?.id === user.id}
                          onClick={() => void askRestore(user)}
                          aria-label={`${user.userID}を復元`}
                        >
                          復元
                        </Button>
                      ) : (
                        <Text size="sm" c="dimmed">
                          復元不可
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {shown && list.data && list.data.pagination.totalPages > 1 && (
          <PagePagination total={list.data.pagination.totalPages} value={page} onChange={setPage} names="ページ目" />
        )}
      </Stack>
    </Paper>
  );
}
