import { MSG } from "@enmusubi/shared";

/** The board's text catalogue: the spec §8 messages from MSG, the rest ours. */
export const BOARD_TEXT = {
  posted: MSG.postCreated,
  heldForReview: MSG.postHeldForReview,
  heldBadge: "確認中",
  heldNote: "確認が終わりしだい掲示板に表示されます。",
  postFailed: MSG.postCreateFailed,
  deleted: MSG.postDeleted,
  deleteFailed: MSG.postDeleteFailed,
  required: MSG.postTitleContentRequired,
  searchBadRequest: MSG.boardSearchBadRequest,
  fetchFailed: MSG.boardFetchFailed,
  myPostsFailed: MSG.myPostsFetchFailed,
  likeFailed: MSG.likeFailed,
  dislikeFailed: MSG.dislikeFailed,
  dateRangeInvalid: MSG.boardDateRangeInvalid,
  readFailed: "既読の処理に失敗しました",
  notEnoughPoints: "あなたのポイント数が足りません。",
  entryFailed: "ポイントの確認/減算に失敗しました",
  noPosts: "まだ投稿はありません。",
  noMyPosts: "まだ投稿していません。「新規投稿」から書き込めます。",
  noResults: "条件に一致する投稿は見つかりませんでした。",
  statsFailed: "集計の取得に失敗しました。",
} as const;
