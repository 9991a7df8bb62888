import "@mantine/core/styles.css";
import "@mantine/dates/styles.css";
import { DatesProvider } from "@mantine/dates";
import { ModalsProvider } from "@mantine/modals";
import type { ReactNode } from "react";
import { DATES_SETTINGS } from "../lib/dates";

/**
 * What only the signed-in screens need, kept out of the public entry (/login, /signup, the legal
 * pages): the styles of every Mantine component (the entry carries only those its pages use, see
 * main.tsx), the date pickers' provider and styles, and the confirmation dialogs (lib/confirm.tsx)
 * that only signed-in screens open. Loaded with the admin shell, and with each member screen or
 * dialog but not the member dashboard (member/lazy-screen.tsx).
 */
export function ShellProviders({ children }: { children: ReactNode }) {
  return (
    <DatesProvider settings={DATES_SETTINGS}>
      <ModalsProvider labels={{ confirm: "OK", cancel: "キャンセル" }}>{children}</ModalsProvider>
    </DatesProvider>
  );
}
