import { MSG } from "@enmusubi/shared";
import { Alert, Badge, Button, Group, Modal, Stack, Table, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { confirmAction } from "../../lib/confirm";
import { formatDateTime } from "../../lib/format";
import { errorMessage, useTRPC } from "../../lib/trpc";
import { ADMIN_PHONE_TEXT } from "./text";
import type { AdminUser } from "./types";

/**
 * A member's phone verification (decision 0048): the number, when, the sign-up bonus; and the
 * clearing, asked first and audited, which frees the number (the bonus is never granted again).
 */
export function PhoneModal({
  user,
  onClose,
  onCleared,
}: {
  user: AdminUser | null;
  onClose(): void;
  onCleared(): void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const state = useQuery({ ...trpc.adminPhone.state.queryOptions({ id: user?.id ?? "" }), enabled: !!user });
  const clear = useMutation(
    trpc.adminPhone.clear.mutationOptions({
      onSuccess: (result) => {
        notifications.show({ color: "green", message: result.message });
        void queryClient.invalidateQueries({ queryKey: trpc.adminPhone.state.queryKey() });
        onCleared();
      },
      onError: (e) => notifications.show({ color: "red", message: errorMessage(e, MSG.genericError) }),
    }),
  );
  const askClear = async () => {
    if (!user) return;
    const ok = await confirmAction({
      title: ADMIN_PHONE_TEXT.clearTitle,
      message: ADMIN_PHONE_TEXT.clearQuestion(user.userID),
      confirmLabel: ADMIN_PHONE_TEXT.clear,
      danger: true,
    });
    if (ok) clear.mutate({ id: user.id });
  };
  const data = state.data;
  return (
    <Modal opened={!!user} onClose={onClose} title={ADMIN_PHONE_TEXT.title(user?.userID ?? "")}>
      <Stack gap="sm">
        {state.isError && <Alert color="red">{errorMessage(state.error, MSG.genericError)}</Alert>}
        {data && (
          <Table variant="vertical" withTableBorder={false}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={120}>{ADMIN_PHONE_TEXT.state}</Table.Th>
                <Table.Td>
                  <Badge color={data.verified ? "green" : "gray"} variant="light">
                    {data.verified ? ADMIN_PHONE_TEXT.verified : ADMIN_PHONE_TEXT.unverified}
                  </Badge>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{ADMIN_PHONE_TEXT.number}</Table.Th>
                <Table.Td data-testid="admin-phone-number">{data.phone ?? "—"}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{ADMIN_PHONE_TEXT.verifiedAt}</Table.Th>
                <Table.Td>{formatDateTime(data.verifiedAt)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>{ADMIN_PHONE_TEXT.signupBonus}</Table.Th>
                <Table.Td>
                  {data.signupBonusGrantedAt
                    ? ADMIN_PHONE_TEXT.bonusGranted(formatDateTime(data.signupBonusGrantedAt))
                    : data.signupBonusPending
                      ? ADMIN_PHONE_TEXT.bonusPending
                      : ADMIN_PHONE_TEXT.bonusNone}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        )}
        <Text size="xs" c="dimmed">
          {ADMIN_PHONE_TEXT.note}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            閉じる
          </Button>
          <Button
            color="red"
            variant="light"
            disabled={!data?.verified}
            loading={clear.isPending}
            onClick={() => void askClear()}
          >
            {ADMIN_PHONE_TEXT.clear}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
