/** The message board 掲示板 (spec §8 "Board search" and "Post", §5 member post; the rest ours). */
export const BOARD_MSG = {
  boardSearchBadRequest: "検索条件に問題があります。もう一度お試しください。",
  boardFetchFailed: "投稿の取得に失敗しました。もう一度お試しください。",
  myPostsFetchFailed: "投稿の取得に失敗しました",
  likeFailed: "いいねの処理に失敗しました",
  dislikeFailed: "よくないねの処理に失敗しました",
  postCreated: "投稿が完了しました！",
  postCreateFailed: "投稿の作成に失敗しました",
  postDeleted: "投稿が削除されました",
  postDeleteFailed: "投稿の削除に失敗しました",
  /** spec §5: member post, trimmed title and content required. */
  postTitleContentRequired: "タイトルと内容を入力してください",
  /** ours */
  postTitleTooLong: "タイトルは100文字以内で入力してください。",
  postContentTooLong: "内容は2000文字以内で入力してください。",
  boardKeywordTooLong: "キーワードは50文字以内で入力してください。",
  boardPosterTooLong: "投稿者は50文字以内で入力してください。",
  boardDateInvalid: "日付はYYYY-MM-DDの形式で入力してください。",
  boardDateRangeInvalid: "開始日は終了日以前の日付を指定してください。",
  /** 402 from the list when viewing costs points and no entry window is open. */
  boardEntryRequired: "掲示板を閲覧するには入室が必要です（ポイントを消費します）。",
  boardEntered: "掲示板に入室しました。",
  boardRead: "既読にしました。",
  /** How an administrator's post is signed to members. */
  boardOperatorName: "運営事務局",
} as const;
