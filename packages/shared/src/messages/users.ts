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
} as const;
