import { genderLabels } from "@enmusubi/shared";
import { ActionIcon, Avatar, Badge, Button, Group, Table, Tooltip } from "@mantine/core";
import { displayName } from "../../lib/display-name";
import { formatPoints } from "../../lib/format";
import { EmptyTableRow } from "../../ui/EmptyTableRow";
import { SuspendButton } from "../moderation/SuspendButton";
import type { AdminUser } from "./types";

/**
 * ユーザー一覧: photo, user ID, name (管理者 badge), gender, points, send points (✎ edits them), and
 * 編集 / 履歴, plus メッセージ / 利用停止 / 削除 on member rows only.
 */
export function UserTable({
  users,
  onSendPoints,
  onEdit,
  onLedger,
  onMessage,
  onDelete,
  deletingId,
}: {
  users: AdminUser[] | undefined;
  onSendPoints(user: AdminUser): void;
  onEdit(user: AdminUser): void;
  onLedger(user: AdminUser): void;
  onMessage(user: AdminUser): void;
  onDelete(user: AdminUser): void;
  deletingId: string | undefined;
}) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="xs" aria-label="ユーザー一覧">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>写真</Table.Th>
            <Table.Th>ユーザーID</Table.Th>
            <Table.Th>名前</Table.Th>
            <Table.Th>性別</Table.Th>
            <Table.Th ta="right">購入ポイント</Table.Th>
            <Table.Th ta="right">送信ポイント</Table.Th>
            <Table.Th>操作</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {users?.map((user) => (
            <Table.Tr key={user.id} data-userid={user.userID}>
              <Table.Td>
                <Avatar src={user.photoUrl} alt={user.name ?? user.userID} radius="xl" size="md" color="pink">
                  {(user.name ?? "?").slice(0, 1)}
                </Avatar>
              </Table.Td>
              <Table.Td ff="monospace">{user.userID}</Table.Td>
              <Table.Td>
                {displayName(user)}{" "}
                {user.role === "admin" && (
                  <Badge size="xs" color="grape" variant="light">
                    管理者
                  </Badge>
                )}
              </Table.Td>
              <Table.Td>{genderLabels[user.gender]}</Table.Td>
              <Table.Td ta="right">{formatPoints(user.points)}</Table.Td>
              <Table.Td ta="right">
                <Group gap={4} justify="flex-end" wrap="nowrap">
                  {formatPoints(user.sendPoints)}
                  <Tooltip label="送信ポイントを編集">
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      onClick={() => onSendPoints(user)}
                      aria-label={`${user.userID}の送信ポイントを編集`}
                    >
                      ✎
                    </ActionIcon>
                  </Tooltip>
                </Group>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-xs" variant="light" onClick={() => onEdit(user)}>
                    編集
                  </Button>
                  <Button size="compact-xs" variant="default" onClick={() => onLedger(user)}>
                    履歴
                  </Button>
                  {user.role !== "admin" && (
                    <Button size="compact-xs" variant="light" color="teal" onClick={() => onMessage(user)}>
                      メッセージ
                    </Button>
                  )}
                  {user.role !== "admin" && <SuspendButton user={user} />}
                  {user.role !== "admin" && (
                    <Button
                      size="compact-xs"
                      color="red"
                      variant="light"
                      onClick={() => onDelete(user)}
                      loading={deletingId === user.id}
                    >
                      削除
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
          {users && users.length === 0 && <EmptyTableRow colSpan={7}>該当するユーザーはいません。</EmptyTableRow>}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
