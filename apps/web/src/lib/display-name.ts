/** What a screen shows for a value the member has not set (spec §2 member card: 未設定). */
export const UNSET = "未設定";

/** A person's name as shown: the name, or 未設定 when there is none (or only blanks). */
export function displayName(person: { name: string | null } | null | undefined): string {
  return person?.name?.trim() || UNSET;
}
