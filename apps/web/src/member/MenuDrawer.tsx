import { Drawer } from "@mantine/core";
import { useMounted } from "@mantine/hooks";
import type { ReactNode } from "react";

/**
 * The member menu as a drawer with an overlay (768 px or less, spec §2). A module of its own so
 * the drawer (scroll lock, focus trap, scroll area) loads when the menu is first opened, not with
 * the dashboard.
 */
export default function MenuDrawer({
  opened,
  onClose,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  // Mounted by the first click, already asked to open: it opens one render later, else the drawer
  // would not note the focused toggle to return the focus to.
  const mounted = useMounted();
  return (
    <Drawer
      opened={opened && mounted}
      onClose={onClose}
      title="メニュー"
      size="80%"
      overlayProps={{ backgroundOpacity: 0.4 }}
    >
      {children}
    </Drawer>
  );
}
