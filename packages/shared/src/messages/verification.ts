/** Age verification and account standing (ours: the spec has no such screens; decision 0006). */
export const VERIFICATION_MSG = {
  /** 403 for the four acts of 出会い系サイト規制法 art. 11 until the member is verified. */
  verificationRequired:
    "年齢確認が完了していないため、この機能はご利用いただけません。年齢確認ページ（/user/verification）から本人確認書類を提出してください。",
  /** Login or any call of a suspended account. */
  accountSuspended: "このアカウントは利用停止中です。お問い合わせください。",
  /** Submitting again while a submission waits for review (409). */
  verificationAlreadyPending: "年齢確認の審査中です。審査結果が届くまでお待ちください。",
  /** Submitting when already verified (409). */
  verificationAlreadyDone: "年齢確認はすでに完了しています。",
  /** An administrator's account has nothing to verify. */
  verificationMembersOnly: "年齢確認は会員のみが対象です。",
  verificationSubmitted: "本人確認書類を提出しました。審査結果が届くまでお待ちください。",
  /** Approve or reject a submission another administrator has already reviewed (409). */
  verificationAlreadyReviewed: "この申請はすでに審査済みです。",
  /** The ID image was deleted (reviewed, or older than ID_IMAGE_RETENTION_HOURS). */
  verificationImageGone: "この身分証画像はすでに削除されています。",
  verificationApproved: "年齢確認を承認しました",
  verificationRejected: "年齢確認を却下しました",
  rejectReasonRequired: "却下の理由を入力してください",
  /** The approval (and an administrator's new member) needs the birth date read from the ID (decision 0043). */
  idBirthdayRequired: "身分証で確認した生年月日を入力してください。",
  idBirthdayInvalid: "身分証で確認した生年月日を正しく入力してください。",
  /** The birth date read from the ID makes the holder younger than 18: nothing is created or approved. */
  idBirthdayUnderAge: "身分証の生年月日では18歳未満です。18歳未満の方は会員として登録・承認できません。",
  idDocumentKindRequired: "確認した身分証の種類を選んでください。",
  rejectReasonTooLong: "却下の理由は500文字以内で入力してください",
  /** Shown in place of the body of a member's message to a member who is not verified yet. */
  lockedMessageNotice: "年齢確認が完了すると、このメッセージを読むことができます。",
  /** The member shell's banner, by status. */
  verificationBannerUnverified:
    "年齢確認が完了していません。メッセージの送受信と掲示板のご利用には年齢確認が必要です。",
  verificationBannerPending: "年齢確認の審査中です。審査が完了するとメッセージの送受信と掲示板をご利用いただけます。",
  verificationBannerRejected: "年齢確認が完了しませんでした。内容をご確認のうえ、もう一度提出してください。",
  verificationBannerLink: "年齢確認へ進む",
  /** In place of a refused action's error (reason verification_required, decision 0032). */
  verificationRefusalTitle: "年齢確認が必要です",
  verificationRefusal: "この機能は年齢確認が完了するとご利用いただけます。本人確認書類を提出してください。",
} as const;
