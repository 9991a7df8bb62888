import { PAGE_BUTTON_WINDOW } from "@enmusubi/shared";

export type PageItem = number | "ellipsis-start" | "ellipsis-end";

/**
 * The page buttons of the admin message screens (spec §9 "page-button window 5"): at most five
 * consecutive pages around the current one, plus the first and last pages with an ellipsis where
 * pages are left out.
 */
export function pageWindow(current: number, total: number, size: number = PAGE_BUTTON_WINDOW): PageItem[] {
  if (total <= 1) return [1];
  const half = Math.floor(size / 2);
  let start = Math.max(1, current - half);
  const end = Math.min(total, start + size - 1);
  start = Math.max(1, end - size + 1);
  const items: PageItem[] = [];
  if (start > 1) {
    items.push(1);
    if (start > 2) items.push("ellipsis-start");
  }
  for (let p = start; p <= end; p++) items.push(p);
  if (end < total) {
    if (end < total - 1) items.push("ellipsis-end");
    items.push(total);
  }
  return items;
}
