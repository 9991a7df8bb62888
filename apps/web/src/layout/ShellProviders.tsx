import "@mantine/core/styles.css";
import "@mantine/dates/styles.css";
import { DatesProvider } from "@mantine/dates";
import { ModalsProvider } from "@mantine/modals";
import type { ReactNode } from "react";
import { DATES_SETTINGS } from "../lib/dates";

/**
 * What only the signed-in shells need, loaded with them and kept out of the public entry
 * (/login, /signup, the legal pages): the styles of every Mantine component (the entry carries
 * only those its pages use, see main.tsx), the date pickers' provider and styles, and the
 * confirmation dialogs (lib/confirm.tsx) that only signed-in screens open.
 */
export function ShellProviders({ children }: { children: ReactNode }) {
  return (
    <DatesProvider settings={DATES_SETTINGS}>
      <ModalsProvider labels={{ confirm: "OK", cancel: "キャンセル" }}>{children}</ModalsProvider>
    </DatesProvider>
  );
}
