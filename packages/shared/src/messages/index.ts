import { ACCOUNTS_MSG } from "./accounts";
import { AUTH_MSG } from "./auth";
import { BOARD_MSG } from "./board";
import { BONUS_MSG } from "./bonuses";
import { COMMON_MSG } from "./common";
import { INQUIRIES_MSG } from "./inquiries";
import { MEMBERS_MSG } from "./members";
import { MESSAGING_MSG } from "./messages";
import { PAYMENTS_MSG } from "./payments";
import { PHONE_MSG } from "./phone";
import { PHOTOS_MSG } from "./photos";
import { POINTS_MSG } from "./points";
import { PROFILE_MSG } from "./profile";
import { PROFILE_REVIEW_MSG } from "./profile-review";
import { REFERENCE_MSG } from "./reference";
import { SAFETY_MSG } from "./safety";
import { SCHEDULED_MSG } from "./scheduled";
import { SCREENING_MSG } from "./screening";
import { SETTINGS_MSG } from "./settings";
import { ADMIN_USERS_MSG } from "./users";
import { VERIFICATION_MSG } from "./verification";

/**
 * The Japanese message catalogue (spec §8 and §5), assembled from one file per domain. Wording is
 * the contract: change a string only when the spec changes. A new domain adds its own file and one
 * line below; the type check refuses a key that two domains both define.
 */
const parts = [
  COMMON_MSG,
  AUTH_MSG,
  PROFILE_MSG,
  PROFILE_REVIEW_MSG,
  ADMIN_USERS_MSG,
  REFERENCE_MSG,
  POINTS_MSG,
  PAYMENTS_MSG,
  BONUS_MSG,
  PHOTOS_MSG,
  MESSAGING_MSG,
  SCHEDULED_MSG,
  SCREENING_MSG,
  MEMBERS_MSG,
  VERIFICATION_MSG,
  SAFETY_MSG,
  BOARD_MSG,
  INQUIRIES_MSG,
  SETTINGS_MSG,
  ACCOUNTS_MSG,
  PHONE_MSG,
] as const;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Keys defined by more than one part; must stay `never`. */
type Clashing<T extends readonly object[], Seen = never> = T extends readonly [
  infer H,
  ...infer R extends readonly object[],
]
  ? (keyof H & Seen) | Clashing<R, Seen | keyof H>
  : never;
const noClash: [Clashing<typeof parts>] extends [never] ? true : { clashingKey: Clashing<typeof parts> } = true;
void noClash;

export const MSG: UnionToIntersection<(typeof parts)[number]> = Object.assign({}, ...parts);

export { bulkSendQuestion, bulkSendStopped, bulkSent, pointsCredited } from "./messages";
export { purchaseAboveMaximum, purchaseBelowMinimum, purchaseConfirmation } from "./payments";
export { phoneCodeWrongLeft, phoneResendWaitSeconds } from "./phone";
export { insufficientPoints, pointCostAboveCap } from "./points";
