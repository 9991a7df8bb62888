/** The review of profile photos and 自己紹介 (ours; docs/decisions/0044). */
export const PROFILE_REVIEW_MSG = {
  /** The owner's own view: their change waits for the review. */
  profileReviewPending: "審査中",
  profilePhotoPendingNotice: "新しい写真は審査中です。承認されるまで、ほかの会員には以前の写真が表示されます。",
  profileIntroductionPendingNotice:
    "自己紹介の変更は審査中です。承認されるまで、ほかの会員には以前の自己紹介が表示されます。",
  /** Followed by the reason (and the note). */
  profileReviewRejectedPrefix: "前回の変更は承認されませんでした：",
  profilePhotoApprovedNotice: "プロフィール写真の変更が承認されました。",
  profileIntroductionApprovedNotice: "自己紹介の変更が承認されました。",
  /** profile.update / the photo upload of a member: the answer says the change waits. */
  profileUpdatedPendingReview:
    "プロフィールを更新しました。写真と自己紹介の変更は、審査のあとほかの会員に表示されます。",
  photoSubmittedForReview: "写真を受け付けました。審査のあと、ほかの会員に表示されます。",
  /** Administrators. */
  profileReviewApproved: "プロフィールの変更を承認しました",
  profileReviewRejected: "プロフィールの変更を却下しました",
  profileReviewAlreadyDecided: "この変更はすでに審査済みか、会員が取り下げました。",
  profileRejectReasonRequired: "却下の理由を選択してください",
  profileRejectNoteRequired: "「その他」を選んだ場合は、理由を入力してください",
  profileRejectNoteTooLong: "補足は500文字以内で入力してください",
} as const;
