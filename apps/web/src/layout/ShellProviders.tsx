import { DatesProvider } from "@mantine/dates";
import { ModalsProvider } from "@mantine/modals";
import type { ReactNode } from "react";
import { DATES_SETTINGS } from "../lib/dates";

/**
 * What only the signed-in screens need, kept out of the public entry (/login, /signup, the legal
 * pages): the date pickers' provider and the confirmation dialogs (lib/confirm.tsx) that only
 * signed-in screens open, with the styles of the dialogs' components. Loaded with the admin
 * shell, and with each member screen or dialog but not the member dashboard (member/lazy-screen.tsx).
 */
export function ShellProviders({ children }: { children: ReactNode }) {
  return (
    <DatesProvider settings={DATES_SETTINGS}>
      <ModalsProvider labels={{ confirm: "OK", cancel: "キャンセル" }}>{children}</ModalsProvider>
    </DatesProvider>
  );
}
