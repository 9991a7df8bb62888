import { ADMIN_USER_PAGE_SIZE, MSG } from "@enmusubi/shared";
import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { PagePagination } from "../../ui/PagePagination";
import { ScheduledPanel } from "../messages/ScheduledPanel";
import { SendMessageModal } from "../messages/SendMessageModal";
import { AddUserModal } from "./AddUserModal";
import { EditUserModal } from "./EditUserModal";
import { LedgerModal } from "./LedgerModal";
import { SendPointsModal } from "./SendPointsModal";
import type { AdminUser } from "./types";
import { UserTable } from "./UserTable";
import { WithdrawnMembers } from "./WithdrawnMembers";

type Field = "userID" | "gender";

/**
 * User management (spec §2 admin screen 1): total count, search by userID (several IDs
 * comma-separated) or gender, the member table with edit / send points / ledger / delete.
 * Searching and paging run on the server. Admin rows have no delete button; the server refuses
 * such a deletion anyway.
 */
export function UserManagement() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [field, setField] = useState<Field>("userID");
  const [draft, setDraft] = useState("");
  const [search, setSearch] = useState("");
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [sendPointsFor, setSendPointsFor] = useState<AdminUser | null>(null);
  const [ledgerFor, setLedgerFor] = useState<AdminUser | null>(null);
  const [messageTo, setMessageTo] = useState<AdminUser | null>(null);

  const list = useQuery({
    ...trpc.adminUsers.list.queryOptions({ field, search, page, pageSize: ADMIN_USER_PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.adminUsers.list.pathKey() });

  const remove = useMutation(
    trpc.adminUsers.delete.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.userDeleted });
        void refresh();
      },
      onError: (error) => notifications.show({ color: "red", message: errorMessage(error, MSG.userDeleteFailed) }),
    }),
  );

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setSearch(draft.trim());
    setPage(1);
  };

  const askDelete = async (user: AdminUser) => {
    const ok = await confirmAction({
      title: "ユーザーの削除",
      message: `${user.name ?? user.userID}（${user.userID}）を削除しますか？削除したユーザーはログインできなくなり、一覧から消えます。`,
      irreversible: true,
    });
    if (ok) remove.mutate({ id: user.id });
  };

  const data = list.data;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>ユーザー管理</Title>
          <Text c="dimmed" size="sm" data-testid="user-total">
            {/* Above 10,000 matches the server answers PostgreSQL's estimate instead of counting. */}
            総ユーザー数: {data ? `${data.totalEstimated ? "約" : ""}${data.total.toLocaleString("ja-JP")}人` : "—"}
          </Text>
        </div>
        <Button onClick={() => setAdding(true)}>ユーザーを追加</Button>
      </Group>

      <Paper withBorder p="sm" component="form" onSubmit={submitSearch} role="search">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label="検索項目"
            data={[
              { value: "userID", label: "ユーザーID" },
              { value: "gender", label: "性別" },
            ]}
            value={field}
            onChange={(v) => {
              setField((v as Field) ?? "userID");
              setPage(1);
            }}
            allowDeselect={false}
            w={140}
          />
          <TextInput
            label="検索キーワード"
            placeholder={field === "userID" ? "ユーザーID（カンマ区切りで複数指定できます）" : "男性 または 女性"}
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 220 }}
          />
          <Button type="submit" variant="light">
            検索
          </Button>
          {search && (
            <Button
              variant="subtle"
              onClick={() => {
                setDraft("");
                setSearch("");
                setPage(1);
              }}
            >
              クリア
            </Button>
          )}
        </Group>
      </Paper>

      <ScheduledPanel source="all" />

      {list.isError && (
        <Alert color="red" title="ユーザー一覧の取得に失敗しました。" role="alert">
          <Group gap="sm">
            <Text size="sm">{errorMessage(list.error, "通信状況を確認して、もう一度お試しください。")}</Text>
            <Button size="compact-sm" variant="light" color="red" onClick={() => void list.refetch()}>
              再読み込み
            </Button>
          </Group>
        </Alert>
      )}
      <UserTable
        users={data?.users}
        onSendPoints={setSendPointsFor}
        onEdit={setEditing}
        onLedger={setLedgerFor}
        onMessage={setMessageTo}
        onDelete={(user) => void askDelete(user)}
        deletingId={remove.isPending ? remove.variables?.id : undefined}
      />
      {list.isLoading && <Text c="dimmed">読み込み中...</Text>}
      {data && <PagePagination total={data.totalPages} value={page} onChange={setPage} siblings={2} names="ページ目" />}
      <WithdrawnMembers onRestored={() => void refresh()} />

      <AddUserModal opened={adding} onClose={() => setAdding(false)} onCreated={refresh} />
      <EditUserModal user={editing} onClose={() => setEditing(null)} onSaved={refresh} />
      <SendPointsModal user={sendPointsFor} onClose={() => setSendPointsFor(null)} onSaved={refresh} />
      <LedgerModal user={ledgerFor} onClose={() => setLedgerFor(null)} />
      <SendMessageModal recipient={messageTo} onClose={() => setMessageTo(null)} source="admin:user-mgmt" />
    </Stack>
  );
}
