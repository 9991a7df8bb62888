/** Profiles and photos (spec §5, §8 Profile). */
export const PROFILE_MSG = {
  passwordTooShort: "パスワードは6文字以上で入力してください",
  passwordMismatch: "パスワードが一致しません",
  currentPasswordRequired: "現在のパスワードを入力してください。",
  currentPasswordWrong: "現在のパスワードが正しくありません。",
  nameRequired: "名前を入力してください。",
  nameTooLong: "名前は50文字以内で入力してください。",
  /** Members are shown by a nickname, never their real name (decision 0043). */
  nicknameRequired: "ニックネームを入力してください。",
  nicknameTooLong: "ニックネームは50文字以内で入力してください。",
  nicknameAdvice: "本名は使わないでください。ほかの会員に表示されます。",
  birthdayInvalid: "生年月日を正しく入力してください。",
  underAge: "18歳未満の方はご利用いただけません。",
  addressTooLong: "住所は100文字以内で入力してください。",
  /** ours */
  selfIntroductionTooLong: "自己紹介は1000文字以内で入力してください。",
  occupationUnknown: "選択された職業が見つかりません。",
  annualIncomeUnknown: "選択された年収が見つかりません。",
  photoLinkInvalid: "写真のURLが正しくありません。",
  profileUpdated: "プロフィールを更新しました。",
  profileUpdateFailed: "プロフィールの更新に失敗しました",
  adminFetchFailed: "管理者情報の取得に失敗しました",
  imageOnly: "画像ファイルを選択してください。",
  /** ours */
  imageTooLarge: "画像のサイズが大きすぎます。10MB以下の画像を選択してください。",
  imageUnreadable: "画像を読み込めませんでした。別の画像を選択してください。",
  photoUpdated: "写真を更新しました。",
  photoRemoved: "写真を削除しました。",
} as const;
