import type { RouterOutputs } from "@enmusubi/api";

export type AdminMessage = RouterOutputs["adminMessages"]["list"]["messages"][number];
export type AdminMessageParty = AdminMessage["from"];

/** How a party is named on the admin screens: name, else the login ID. */
export function partyName(party: { name: string | null; userID?: string }): string {
  return party.name ?? party.userID ?? "未設定";
}
