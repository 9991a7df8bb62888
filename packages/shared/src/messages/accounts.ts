/** Joining and leaving: consent to the terms, 退会 and its restoration (decision 0034; ours). */
export const ACCOUNTS_MSG = {
  termsConsentRequired: "利用規約とプライバシーポリシーへの同意が必要です。",
  adultDeclarationRequired: "18歳以上であることの確認が必要です。",
  termsVersionOutdated: "利用規約が更新されました。画面を再読み込みして、最新の利用規約をご確認ください。",
  consentRecorded: "利用規約とプライバシーポリシーへの同意を記録しました。",
  accountWithdrawn: "このアカウントは退会済みのため、ログインできません。",
  withdrawPasswordRequired: "退会するにはパスワードを入力してください。",
  withdrawPasswordWrong: "パスワードが正しくありません。",
  withdrawDone: "退会手続きが完了しました。ご利用ありがとうございました。",
  adminNotWithdrawable: "管理者アカウントは退会できません。",
  notWithdrawn: "この会員は退会していません。",
  restoreRetentionOver: "保存期間を過ぎた会員は復元できません。",
  restoreEmailTaken: "このメールアドレスは別の会員が使用しているため、復元できません。",
  userRestored: "退会した会員を復元しました。",
} as const;
