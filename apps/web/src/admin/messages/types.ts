import type { RouterOutputs } from "@enmusubi/api";

export type AdminMessage = RouterOutputs["adminMessages"]["list"]["messages"][number];
export type AdminMessageParty = AdminMessage["from"];

/** How a party is named on the admin screens: name, else the login ID. */
export function partyName(party: { name: string | null; userID?: string }): string {
  return party.name ?? party.userID ?? "未設定";
}

/** Unread rows are highlighted (spec §4) by a bar at their start, which keeps every text colour readable. */
export const UNREAD_ROW = { boxShadow: "inset 4px 0 0 var(--mantine-color-pink-6)" } as const;
