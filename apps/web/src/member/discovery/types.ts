import type { RouterOutputs } from "../../lib/api-types";

/** How a member sees another member (the server's PublicProfile; never email, points or role). */
export type PublicProfile = RouterOutputs["members"]["favorites"][number];

/** The paid detail (members.viewProfile): the public profile, 自己紹介 and the last-activity bucket. */
export type ProfileDetail = RouterOutputs["members"]["viewProfile"]["profile"];

/** Screen texts of discovery (spec §8 search and favourite messages; the rest ours). */
export const DISCOVERY_MSG = {
  searchFailed: "プロフィール検索に失敗しました。",
  noResults: "検索条件に一致するプロフィールが見つかりませんでした。",
  notEnoughPoints: "あなたのポイント数が足りません。",
  favoriteRemoved: "お気に入りから削除しました",
  favoriteRemoveFailed: "お気に入りからの削除に失敗しました",
  favoriteAdded: "お気に入りに追加しました",
  favoriteAddFailed: "お気に入りへの追加に失敗しました",
  favoritesFailed: "お気に入り一覧の取得に失敗しました。",
  footprintsFailed: "足あとの取得に失敗しました。",
  viewFailed: "プロフィールの取得に失敗しました。",
} as const;

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
