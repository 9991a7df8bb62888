/** Age verification and account standing (ours: the spec has no such screens). */
export const VERIFICATION_MSG = {
  /** 403 for the four acts of 出会い系サイト規制法 art. 11 until the member is verified. */
  verificationRequired:
    "年齢確認が完了していないため、この機能はご利用いただけません。年齢確認ページ（/user/verification）から本人確認書類を提出してください。",
  /** Login or any call of a suspended account. */
  accountSuspended: "このアカウントは利用停止中です。お問い合わせください。",
} as const;
