import { Notifications as MantineNotifications } from "@mantine/notifications";

/**
 * Mantine's notifications container, loaded when first needed (main.tsx); its stylesheets come
 * with this chunk (vite/mantine-styles.ts), not with the first screen.
 */
export default function Notifications() {
  return <MantineNotifications position="top-center" />;
}
