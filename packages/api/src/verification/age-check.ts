import { type AgeCheckInput, ageOn, ID_DOCUMENT_LABELS, MIN_AGE, MSG } from "@enmusubi/shared";
import { AppError } from "../errors";

/**
 * The age an administrator reads off an ID (decision 0043): when creating a member and when
 * approving a submission. The input schemas already refuse a day under MIN_AGE; the services check
 * again, on the same day the write happens, so no path writes an under-age birth date as verified.
 */
export function assertAdultOnId(birthday: string, today = new Date()): number {
  const age = ageOn(birthday, today);
  if (age < MIN_AGE) throw new AppError("BAD_REQUEST", MSG.idBirthdayUnderAge);
  return age;
}

/** What the audit row of an administrator's new member says of the age check. */
export function ageCheckAudit(check: AgeCheckInput | null, today = new Date()) {
  if (!check) return { ageCheck: null, ageCheckNote: "書類の記録なし" };
  return {
    ageCheck: {
      documentKind: check.documentKind,
      document: ID_DOCUMENT_LABELS[check.documentKind],
      birthday: check.birthday,
      ageAtCheck: ageOn(check.birthday, today),
      adult: true,
    },
  };
}
