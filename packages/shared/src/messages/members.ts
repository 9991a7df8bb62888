/** Discovery: profile search and favourites (spec §8 "Profile" and "Favourites"; the rest ours). */
export const MEMBERS_MSG = {
  searchFailed: "プロフィール検索に失敗しました。",
  searchNoResults: "検索条件に一致するプロフィールが見つかりませんでした。",
  favoriteRemoved: "お気に入りから削除しました",
  favoriteRemoveFailed: "お気に入りからの削除に失敗しました",
  /** ours */
  favoriteAdded: "お気に入りに追加しました",
  favoriteAddFailed: "お気に入りへの追加に失敗しました",
  favoriteSelf: "自分自身をお気に入りに追加することはできません。",
  ageRangeInvalid: "年齢は18〜120歳の範囲で、下限が上限以下になるように指定してください。",
  prefectureInvalid: "都道府県を一覧から選択してください。",
  keywordTooLong: "キーワードは50文字以内で入力してください。",
  /** Enlarging a photo (decision 0028). */
  photoNone: "この会員は拡大できる写真を登録していません。",
  photoEnlarge: "写真を拡大",
  photoEnlargeFailed: "写真の表示に失敗しました。",
  photoLinkExpired: "写真の表示期限が切れました。もう一度「写真を拡大」を押してください。",
  searchOrderInvalid: "並び順を一覧から選択してください。",
} as const;
