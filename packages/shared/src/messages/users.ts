/** Administrator user management (spec §8 admin alerts; the rest ours). */
export const ADMIN_USERS_MSG = {
  userUpdated: "ユーザー情報を更新しました",
  userUpdateFailedPrefix: "ユーザー情報の更新に失敗しました: ",
  pointsInvalid: "ポイントは0以上の整数で入力してください。",
  /** ours */
  userIdInvalid: "ユーザーIDは3〜32文字の半角英数字・記号(-_)で入力してください。",
  adminNotDeletable: "管理者アカウントはこの画面から削除できません。",
  selfNotDeletable: "自分自身のアカウントは削除できません。",
  userDeleted: "ユーザーを削除しました。",
  userCreated: "ユーザーを登録しました。",
  userDeleteFailed: "ユーザーの削除に失敗しました。",
  userCreateFailed: "ユーザーの作成に失敗しました。",
  /** A balance change that does not say which balance it replaces (decision 0016). */
  balanceExpectedMissing: "変更前のポイントが指定されていません。画面を更新してからもう一度入力してください。",
  /** The balance moved between the administrator's read and the save: nothing was saved (409). */
  balanceChanged:
    "編集中にこのユーザーのポイントが変わったため、保存しませんでした。現在のポイントを確認して、もう一度入力してください。",
  /** REST `If-Match`: the user changed since the version the client read (412). */
  userChangedSince:
    "このユーザーの情報は読み込んだ後に変更されたため、保存しませんでした。最新の情報を読み込んでからやり直してください。",
  /** The user list's keyword box (name, e-mail, user ID; decision 0036). */
  userSearchTooLong: "検索キーワードは100文字以内で入力してください。",
  /** The member export (CSV, decision 0036). */
  usersExported: "会員一覧をCSVでダウンロードしました。",
  usersExportFailed: "CSVのダウンロードに失敗しました。",
} as const;
