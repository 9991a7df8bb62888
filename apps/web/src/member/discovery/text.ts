/** Discovery's text catalogue (spec §8 search and favourite messages; the rest ours). */
export const DISCOVERY_TEXT = {
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
