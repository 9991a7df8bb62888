import {
  ADMIN_MESSAGE_PAGE_SIZE_ALL,
  ADMIN_MESSAGE_PAGE_SIZE_DEFAULT,
  ADMIN_MESSAGE_PAGE_SIZES,
  MSG,
} from "@enmusubi/shared";
import { Button, Group, Paper, Select, Stack, Text, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { confirmAction } from "../../lib/confirm";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { EditMessageModal } from "./EditMessageModal";
import { MessageDetailModal } from "./MessageDetailModal";
import { MessageTable } from "./MessageTable";
import { Pager } from "./Pager";
import { ScheduledPanel } from "./ScheduledPanel";
import { SendAsUserModal, type SendAsUserPair } from "./SendAsUserModal";
import { type AdminMessage, partyName, totalLabel } from "./types";

type Status = "all" | "read" | "unread" | "replied";
const STATUS_OPTIONS = [
  { value: "all", label: "すべて" },
  { value: "read", label: "既読" },
  { value: "unread", label: "未読" },
  { value: "replied", label: "返信済み" },
];
const SIZE_OPTIONS = [
  ...ADMIN_MESSAGE_PAGE_SIZES.map((n) => ({ value: String(n), label: `${n}件` })),
  { value: "all", label: "すべて" },
];

/**
 * Email management (spec §2 admin 8): every message, searched, filtered and paged on the server;
 * detail, edit, delete (confirmed) and send-as-user. Page resets to 1 on search, filter or size.
 */
export function EmailManagement() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState("");
  const [search, setSearch] = useState("");
  const [status, setStatus] = useState<Status>("all");
  const [size, setSize] = useState<string>(String(ADMIN_MESSAGE_PAGE_SIZE_DEFAULT));
  const [page, setPage] = useState(1);
  const [detail, setDetail] = useState<AdminMessage | null>(null);
  const [editing, setEditing] = useState<AdminMessage | null>(null);
  const [pair, setPair] = useState<SendAsUserPair | null>(null);
  const limit = size === "all" ? ADMIN_MESSAGE_PAGE_SIZE_ALL : Number(size);

  const list = useQuery({
    ...trpc.adminMessages.list.queryOptions({ box: "all", page, limit, search, status }),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation(
    trpc.adminMessages.delete.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: "green", message: MSG.messageDeleted });
        void queryClient.invalidateQueries({ queryKey: trpc.adminMessages.pathKey() });
      },
      onError: (error) => notifications.show({ color: "red", message: errorMessage(error, MSG.messageDeleteFailed) }),
    }),
  );

  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setSearch(draft.trim());
    setPage(1);
  };
  const askDelete = async (message: AdminMessage) => {
    const ok = await confirmAction({
      title: "メッセージの削除",
      message: `${partyName(message.from)} から ${partyName(message.to)} へのメッセージ（${formatDateTime(message.createdAt)}）を削除しますか？`,
      irreversible: true,
    });
    if (ok) remove.mutate({ id: message.id });
  };

  const data = list.data;
  const offset = data ? (data.page - 1) * data.limit : 0;
  return (
    <Stack gap="md">
      <div>
        <Title order={2}>メール管理</Title>
        <Text c="dimmed" size="sm" data-testid="message-total">
          全メッセージ: {data ? totalLabel(data) : "—"}
        </Text>
      </div>

      <Paper withBorder p="sm" component="form" onSubmit={submitSearch} role="search" aria-label="メッセージの検索">
        <Group gap="xs" align="flex-end" wrap="wrap">
          <TextInput
            label="検索"
            placeholder="本文・名前・ユーザーID"
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button type="submit" variant="light">
            検索
          </Button>
          <Select
            label="状態"
            data={STATUS_OPTIONS}
            value={status}
            onChange={(v) => {
              setStatus((v as Status) ?? "all");
              setPage(1);
            }}
            allowDeselect={false}
            w={130}
          />
          <Select
            label="表示件数"
            data={SIZE_OPTIONS}
            value={size}
            onChange={(v) => {
              setSize(v ?? String(ADMIN_MESSAGE_PAGE_SIZE_DEFAULT));
              setPage(1);
            }}
            allowDeselect={false}
            w={120}
          />
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

      {list.isError && (
        <Group gap="xs" role="alert">
          <Text c="red">メッセージの取得に失敗しました。</Text>
          <Button size="compact-sm" variant="light" onClick={() => void list.refetch()}>
            再試行
          </Button>
        </Group>
      )}
      <MessageTable
        messages={data?.messages}
        offset={offset}
        onSendAs={setPair}
        onDetail={setDetail}
        onEdit={setEditing}
        onDelete={(m) => void askDelete(m)}
        deletingId={remove.isPending ? remove.variables?.id : undefined}
      />
      {list.isLoading && <Text c="dimmed">読み込み中...</Text>}
      {data && <Pager page={page} totalPages={data.totalPages} onChange={setPage} label="メッセージ一覧のページ" />}

      <ScheduledPanel source="admin:email-mgmt" />

      <MessageDetailModal message={detail} onClose={() => setDetail(null)} />
      <EditMessageModal message={editing} onClose={() => setEditing(null)} />
      <SendAsUserModal pair={pair} onClose={() => setPair(null)} />
    </Stack>
  );
}
