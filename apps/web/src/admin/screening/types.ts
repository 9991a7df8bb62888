import type { ScreeningAction } from "@enmusubi/shared";
import type { RouterOutputs } from "../../lib/api-types";

/** The screening screens' shapes and helpers (decision 0042); their words are in text.ts. */

export type HeldItem = RouterOutputs["adminScreening"]["queue"]["items"][number];
export type ScreeningRule = RouterOutputs["adminScreening"]["rules"]["rules"][number];

export const ACTION_COLORS: Record<ScreeningAction, string> = { mask: "blue", hold: "orange", refuse: "red" };

/** A member as the queue names them: 「花子（hanako77）」. */
export function personLabel(person: { userID: string; name: string | null }): string {
  const name = person.name?.trim();
  return name ? `${name}（${person.userID}）` : person.userID;
}
