import { useEffect } from "react";

export const SITE_NAME = "縁結び";

/** A screen's document title: 「受信メッセージ｜縁結び」, or the site's name alone. */
export function pageTitle(screen?: string): string {
  return screen ? `${screen}｜${SITE_NAME}` : SITE_NAME;
}

/**
 * Names the browser tab (and what a screen reader announces on arrival) after the screen: every
 * screen has its own title. The shells call it with their section's title; screens
 * outside a shell (login, sign-up, the legal pages) call it themselves.
 */
export function usePageTitle(screen: string | undefined): void {
  useEffect(() => {
    document.title = pageTitle(screen);
  }, [screen]);
}
