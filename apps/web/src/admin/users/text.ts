/** User management's phone verification and login bonus texts (decision 0048). */
export const ADMIN_PHONE_TEXT = {
  title: (userID: string) => `電話番号認証（${userID}）`,
  button: "電話認証",
  badgeVerified: "電話認証済み",
  state: "状態",
  verified: "認証済み",
  unverified: "未認証",
  number: "電話番号",
  verifiedAt: "認証日時",
  signupBonus: "登録特典",
  bonusGranted: (at: string) => `付与済み（${at}）`,
  bonusPending: "未付与（認証時に付与）",
  bonusNone: "対象外（自分で登録した会員のみ）",
  note: "1つの電話番号で認証できるのは1アカウントだけです。利用停止中の会員の番号は使えないままです。解除すると番号は別のアカウントで使えるようになり、この会員は再び認証できますが、登録特典は二度付与されません。",
  clear: "認証を解除",
  clearTitle: "電話番号認証の解除",
  clearQuestion: (userID: string) =>
    `${userID} の電話番号認証を解除しますか？ログインボーナスは再認証まで止まります。この操作は監査ログに記録されます。`,
} as const;

/** The login bonus setting on ポイント設定 (decision 0048). */
export const LOGIN_BONUS_TEXT = {
  title: "ログインボーナス",
  description:
    "電話番号認証済みの会員に、日本時間の1日ごとに最初の利用時、無料ポイント（有効期限180日）を付与します。0で停止します。",
  label: "1日のログインボーナス（pt）",
  save: "保存",
} as const;
