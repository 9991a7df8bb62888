import { ADMIN_USER_KEYWORD_MAX, ADMIN_USER_PAGE_SIZE, MSG } from "@enmusubi/shared";
import { Alert, Button, Group, Paper, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { downloadFile } from "../../lib/download";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { PagePagination } from "../../ui/PagePagination";
import { ScheduledPanel } from "../messages/ScheduledPanel";
import { SendMessageModal } from "../messages/SendMessageModal";
import { AddUserModal } from "./AddUserModal";
import { EditUserModal } from "./EditUserModal";
import { LedgerModal } from "./LedgerModal";
import { PhoneModal } from "./PhoneModal";
import { SendPointsModal } from "./SendPointsModal";
import type { AdminUser } from "./types";
import type { UserActionHandlers } from "./UserActions";
import { UserCards } from "./UserCards";
import { UserTable } from "./UserTable";
import { WithdrawnMembers } from "./WithdrawnMembers";

type GenderFilter = "" | "male" | "female";

/** The REST row streaming the filtered members as CSV (bearer auth, so it is fetched, not linked). */
export const USERS_CSV_PATH = "/api/admin/users.csv";

/** The members' CSV address for a filter (the list's own). */
export function usersCsvPath(q: string, gender: GenderFilter): string {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (gender) {
    params.set("field", "gender");
    params.set("search", gender);
  }
  const query = params.toString();
  return query ? `${USERS_CSV_PATH}?${query}` : USERS_CSV_PATH;
}

const people = (n: number, estimated = false, capped = false) =>
  `${estimated ? "約" : ""}${n.toLocaleString("ja-JP")}人${capped ? "以上" : ""}`;

/**
 * User management (spec §2 admin screen 1): the total and the matches, one keyword box (name,
 * e-mail address or user ID, partial; decision 0036) and a gender filter, the member table with edit /
 * send points / ledger / delete, and the filtered members as CSV. Searching and paging run on the
 * server. Admin rows have no delete button; the server refuses such a deletion anyway. On a phone
 * each user is a card with its buttons in view.
 */
export function UserManagement() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [gender, setGender] = useState<GenderFilter>("");
  const [draft, setDraft] = useState("");
  const [search, setSearch] = useState("");
  const [downloading, setDownloading] = useState(false);
  const [page, setPage] = useState(1);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [sendPointsFor, setSendPointsFor] = useState<AdminUser | null>(null);
  const [ledgerFor, setLedgerFor] = useState<AdminUser | null>(null);
  const [messageTo, setMessageTo] = useState<AdminUser | null>(null);
  const [phoneFor, setPhoneFor] = useState<AdminUser | null>(null);
  // Cards below the shell's breakpoint, read at the first render (no table drawn first on a phone).
  const phone = useMediaQuery("(max-width: 48em)", undefined, { getInitialValueInEffect: false });

  const list = useQuery({
    ...trpc.adminUsers.list.queryOptions({
      q: search,
      ...(gender ? { field: "gender" as const, search: gender } : {}),
      page,
      pageSize: ADMIN_USER_PAGE_SIZE,
    }),
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

  const exportCsv = async () => {
    setDownloading(true);
    try {
      await downloadFile(usersCsvPath(search, gender), "members.csv");
      notifications.show({ color: "green", message: MSG.usersExported });
    } catch {
      notifications.show({ color: "red", message: MSG.usersExportFailed });
    } finally {
      setDownloading(false);
    }
  };

  const handlers: UserActionHandlers = {
    onSendPoints: setSendPointsFor,
    onEdit: setEditing,
    onLedger: setLedgerFor,
    onMessage: setMessageTo,
    onDelete: (user) => void askDelete(user),
    onPhone: setPhoneFor,
    deletingId: remove.isPending ? remove.variables?.id : undefined,
  };
  const data = list.data;
  const filtered = Boolean(search || gender);
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2}>ユーザー管理</Title>
          <Text c="dimmed" size="sm" data-testid="user-total" aria-live="polite">
            {/* Above 10,000 members the server answers PostgreSQL's estimate instead of counting. */}
            総ユーザー数: {data ? people(data.allUsers, data.allUsersEstimated) : "—"}
            {data && filtered && `／該当: ${people(data.total, data.totalEstimated, data.totalCapped)}`}
          </Text>
        </div>
        <Group gap="xs">
          <Button variant="default" onClick={() => void exportCsv()} loading={downloading}>
            CSVダウンロード
          </Button>
          <Button onClick={() => setAdding(true)}>ユーザーを追加</Button>
        </Group>
      </Group>

      <Paper withBorder p="sm" component="form" onSubmit={submitSearch} role="search">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label="検索キーワード"
            placeholder="名前・メールアドレス・ユーザーID（一部でも可）"
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            maxLength={ADMIN_USER_KEYWORD_MAX}
            style={{ flex: 1, minWidth: 220 }}
          />
          <Select
            label="性別"
            data={[
              { value: "", label: "すべて" },
              { value: "male", label: "男性" },
              { value: "female", label: "女性" },
            ]}
            value={gender}
            onChange={(v) => {
              setGender((v as GenderFilter) ?? "");
              setPage(1);
            }}
            allowDeselect={false}
            w={120}
          />
          <Button type="submit" variant="light">
            検索
          </Button>
          {(search || gender) && (
            <Button
              variant="subtle"
              onClick={() => {
                setDraft("");
                setSearch("");
                setGender("");
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
      {phone ? (
        <UserCards users={data?.users} handlers={handlers} />
      ) : (
        <UserTable users={data?.users} handlers={handlers} />
      )}
      {list.isLoading && <Text c="dimmed">読み込み中...</Text>}
      {data && <PagePagination total={data.totalPages} value={page} onChange={setPage} siblings={2} names="ページ目" />}
      <WithdrawnMembers onRestored={() => void refresh()} />

      <AddUserModal opened={adding} onClose={() => setAdding(false)} onCreated={refresh} />
      <EditUserModal user={editing} onClose={() => setEditing(null)} onSaved={refresh} />
      <SendPointsModal user={sendPointsFor} onClose={() => setSendPointsFor(null)} onSaved={refresh} />
      <LedgerModal user={ledgerFor} onClose={() => setLedgerFor(null)} />
      <PhoneModal user={phoneFor} onClose={() => setPhoneFor(null)} onCleared={() => void refresh()} />
      <SendMessageModal recipient={messageTo} onClose={() => setMessageTo(null)} source="admin:user-mgmt" />
    </Stack>
  );
}
