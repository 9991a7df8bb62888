import { Text } from "@mantine/core";
import { modals } from "@mantine/modals";

/**
 * The confirmation every destructive action needs (spec §5). Resolves true when confirmed.
 * `irreversible` adds the "cannot be undone" warning (user, post and inquiry deletion).
 */
export function confirmAction(options: {
  title: string;
  message: string;
  confirmLabel?: string;
  irreversible?: boolean;
  danger?: boolean;
}): Promise<boolean> {
  return new Promise((resolve) => {
    modals.openConfirmModal({
      title: options.title,
      centered: true,
      children: (
        <>
          <Text size="sm">{options.message}</Text>
          {options.irreversible && (
            <Text size="sm" c="red" mt="xs" fw={600}>
              この操作は取り消せません。
            </Text>
          )}
        </>
      ),
      labels: { confirm: options.confirmLabel ?? "削除する", cancel: "キャンセル" },
      confirmProps: { color: options.danger === false ? "pink" : "red" },
      onConfirm: () => resolve(true),
      onCancel: () => resolve(false),
      onClose: () => resolve(false),
    });
  });
}
