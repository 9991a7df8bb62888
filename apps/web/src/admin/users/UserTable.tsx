import { genderLabels } from "@enmusubi/shared";
import { Avatar, Badge, Group, Table } from "@mantine/core";
import { displayName } from "../../lib/display-name";
import { formatPoints } from "../../lib/format";
import { EmptyTableRow } from "../../ui/EmptyTableRow";
import type { AdminUser } from "./types";
import { SendPointsEdit, type UserActionHandlers, UserActions } from "./UserActions";

/**
 * ユーザー一覧: photo, user ID, name (管理者 badge), gender, points, send points (✎ edits them), and
 * 編集 / 履歴, plus メッセージ / 利用停止 / 削除 on member rows only. Wide screens; a phone gets UserCards.
 */
export function UserTable({ users, handlers }: { users: AdminUser[] | undefined; handlers: UserActionHandlers }) {
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
                  <SendPointsEdit user={user} handlers={handlers} />
                </Group>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <UserActions user={user} handlers={handlers} />
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
