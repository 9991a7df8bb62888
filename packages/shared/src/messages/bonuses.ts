/** Purchase bonuses and campaigns (decision 0047): what administrators and members are told. */
export const BONUS_MSG = {
  bonusValueRequired: "ボーナスは付与率（%）か固定ポイントのどちらか一方を入力してください。",
  bonusRateInvalid: "付与率は1〜100の整数（%）で入力してください。",
  bonusFixedInvalid: "固定ポイントは1〜1,000,000の整数で入力してください。",
  bonusTierAmountInvalid: "対象金額は1円以上の整数で入力してください。",
  bonusTiersTooMany: "金額別ボーナスは10段階まで設定できます。",
  bonusTiersDuplicate: "同じ対象金額の金額別ボーナスが複数あります。金額はそれぞれ別にしてください。",
  campaignNameRequired: "キャンペーン名を入力してください。",
  campaignNameTooLong: "キャンペーン名は60文字以内で入力してください。",
  campaignStartInvalid: "開始日時を正しく入力してください。",
  campaignEndInvalid: "終了日時を正しく入力してください。",
  campaignEndBeforeStart: "終了日時は開始日時より後にしてください。",
  campaignStartInPast:
    "開始日時が過去です。すでに受け付けたご注文のボーナスは変えられないため、開始日時は現在より後にしてください。",
  campaignOverlaps:
    "同じ支払方法のキャンペーンと期間が重なっています。期間をずらすか、先に既存のキャンペーンを終了してください。",
  campaignAlreadyEnded: "終了したキャンペーンは変更できません。",
  bonusFetchFailed: "ボーナス設定の取得に失敗しました",
  bonusSaveFailed: "ボーナス設定の保存に失敗しました",
} as const;
