/**
 * The Japanese message catalogue (spec §8 and §5). Wording is the contract: change a string here
 * only when the spec changes. Messages the spec does not give are marked "ours".
 */
export const MSG = {
  // auth (§8)
  loginFailed: "ログインに失敗しました。",
  /** ours: wrong user ID or password; one text for both so accounts cannot be discovered. */
  invalidCredentials: "ユーザーIDまたはパスワードが正しくありません。",
  loginRequired: "ユーザーIDとパスワードを入力してください。",
  genericError: "エラーが発生しました",
  genericErrorDot: "エラーが発生しました。",
  forgotSent: "新しいパスワードをメールで送信しました。",
  signupDone: "登録が完了しました。パスワードをメールで送信しました。",
  emailRequired: "メールアドレスを入力してください。",
  emailInvalid: "正しいメールアドレスを入力してください。",
  emailTaken: "このメールアドレスは既に登録されています。",
  userIdTaken: "このユーザーIDは既に使用されています。",
  genderInvalid: "性別を選択してください。",
  unauthorized: "ログインが必要です。もう一度ログインしてください。",
  forbidden: "この操作を行う権限がありません。",
  notFound: "対象が見つかりません。",
  tooManyRequests: "試行回数が多すぎます。しばらくしてから再度お試しください。",
  badRequest: "入力内容に誤りがあります。",
  invalidJson: "リクエストの形式が正しくありません。",
  payloadTooLarge: "送信データが大きすぎます。",
  internalError: "サーバーでエラーが発生しました。しばらくしてから再度お試しください。",

  // profile (§5, §8)
  passwordTooShort: "パスワードは6文字以上で入力してください",
  passwordMismatch: "パスワードが一致しません",
  currentPasswordRequired: "現在のパスワードを入力してください。",
  currentPasswordWrong: "現在のパスワードが正しくありません。",
  nameRequired: "名前を入力してください。",
  nameTooLong: "名前は50文字以内で入力してください。",
  birthdayInvalid: "生年月日を正しく入力してください。",
  underAge: "18歳未満の方はご利用いただけません。",
  addressTooLong: "住所は100文字以内で入力してください。",
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

  // admin users (§8)
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

  // reference lists (§5, §8)
  occupationRequired: "職業名を入力してください。",
  annualIncomeRequired: "年収範囲を入力してください。",
  occupationFetchFailed: "職業データの取得に失敗しました。",
  annualIncomeFetchFailed: "年収データの取得に失敗しました。",
  occupationAddFailed: "職業の追加に失敗しました。",
  occupationDeleteFailed: "職業の削除に失敗しました。",
  annualIncomeAddFailed: "年収範囲の追加に失敗しました。",
  annualIncomeDeleteFailed: "年収範囲の削除に失敗しました。",
  /** ours */
  occupationAdded: "職業を追加しました。",
  occupationDeleted: "職業を削除しました。",
  annualIncomeAdded: "年収範囲を追加しました。",
  annualIncomeDeleted: "年収範囲を削除しました。",
  occupationTaken: "この職業は既に登録されています。",
  annualIncomeTaken: "この年収範囲は既に登録されています。",
  referenceNameTooLong: "50文字以内で入力してください。",

  // point costs (§8 admin alerts; the rest ours)
  pointCostFetchFailed: "ポイント設定の取得に失敗しました。",
  pointCostUpdateFailed: "ポイント設定の更新に失敗しました。",
  pointCostDeleteFailed: "ポイント設定の削除に失敗しました。",
  pointCostAddFailed: "ポイント設定の追加に失敗しました。",
  pointCostUpdated: "ポイント設定を更新しました。",
  pointCostDeleted: "ポイント設定を削除しました。",
  pointCostAdded: "ポイント設定を追加しました。",
  pointCostInvalid: "ポイントは0以上の整数で入力してください。",
  actionNameInvalid: "アクション名は半角英小文字で始まる英小文字・数字・アンダースコア(2〜50文字)で入力してください。",
  actionNameTaken: "このアクション名は既に登録されています。",
  displayNameRequired: "表示名を入力してください。",
  descriptionTooLong: "説明は500文字以内で入力してください。",
  legalPointCostNotDeletable:
    "利用規約の料金表にある項目は削除できません。無料にする場合はポイントを0に設定してください。",

  // points (§8)
  pointDeductFailed: "ポイント不足または減算に失敗しました",
  pointCheckFailed: "ポイントの確認/減算に失敗しました",
  notEnoughPointsShort: "あなたのポイント数が足りません。",
  unknownAction: "不明なアクションです。",
  /** ours */
  quantityInvalid: "数量は1以上の整数で指定してください。",
} as const;

/** ours: the legal fee table says fees are never higher than its initial figures (spec §9). */
export function pointCostAboveCap(max: number): string {
  return `ポイントは${max}pt以下で設定してください（利用規約の料金表の上限）。`;
}

/** 'ポイントが不足しています。必要ポイント: Xpt 所持ポイント: Ypt' (spec §8). */
export function insufficientPoints(required: number, available: number): string {
  return `ポイントが不足しています。必要ポイント: ${required}pt 所持ポイント: ${available}pt`;
}
