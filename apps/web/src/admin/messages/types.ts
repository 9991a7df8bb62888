import type { RouterOutputs } from "../../lib/api-types";
import { UNSET } from "../../lib/display-name";

export type AdminMessage = RouterOutputs["adminMessages"]["list"]["messages"][number];
export type AdminMessageParty = AdminMessage["from"];

/** How a party is named on the admin screens: name, else the login ID. */
export function partyName(party: { name: string | null; userID?: string }): string {
  return party.name?.trim() || party.userID || UNSET;
}

/** Unread rows are highlighted (spec §4) by a bar at their start, which keeps every text colour readable. */
export const UNREAD_ROW = { boxShadow: "inset 4px 0 0 var(--mantine-color-pink-6)" } as const;

/**
 * The count of an admin message list as the screens show it: past ADMIN_COUNT_CAP matches the
 * server stops counting ("10,000件以上"), and a short or broad keyword searched only the newest
 * messages (said next to the count).
 */
export function totalLabel(page: { total: number; totalCapped: boolean; searchWindow?: number | null }): string {
  const count = `${page.total.toLocaleString("ja-JP")}件${page.totalCapped ? "以上" : ""}`;
  return page.searchWindow
    ? `${count}（短い・広いキーワードのため最新${page.searchWindow.toLocaleString("ja-JP")}件から検索）`
    : count;
}
