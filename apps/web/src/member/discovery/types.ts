import type { RouterOutputs } from "../../lib/api-types";

/** How a member sees another member (the server's PublicProfile; never email, points or role). */
export type PublicProfile = RouterOutputs["members"]["favorites"][number];

/** The paid detail (members.viewProfile): the public profile, 自己紹介 and the last-activity bucket. */
export type ProfileDetail = RouterOutputs["members"]["viewProfile"]["profile"];

export { displayName, UNSET } from "../../lib/display-name";

export function genderLabel(gender: PublicProfile["gender"]): string {
  return gender === "male" ? "男性" : "女性";
}

/** 「28歳・東京都」 — the short line under a name. */
export function summaryLine(profile: PublicProfile): string {
  return [profile.age !== null ? `${profile.age}歳` : null, profile.prefecture, profile.occupation?.name]
    .filter(Boolean)
    .join("・");
}
