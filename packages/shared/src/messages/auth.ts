/** Sign-in, signup and password reissue (spec §8 auth; the rest ours). */
export const AUTH_MSG = {
  loginFailed: "ログインに失敗しました。",
  /** ours: wrong user ID or password; one text for both so accounts cannot be discovered. */
  invalidCredentials: "ユーザーIDまたはパスワードが正しくありません。",
  loginRequired: "ユーザーIDとパスワードを入力してください。",
  forgotSent: "新しいパスワードをメールで送信しました。",
  signupDone: "登録が完了しました。パスワードをメールで送信しました。",
  emailRequired: "メールアドレスを入力してください。",
  emailInvalid: "正しいメールアドレスを入力してください。",
  emailTaken: "このメールアドレスは既に登録されています。",
  userIdTaken: "このユーザーIDは既に使用されています。",
  genderInvalid: "性別を選択してください。",
} as const;
