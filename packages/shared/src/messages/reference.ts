/** Occupation and annual-income lists (spec §5, §8 Lists). */
export const REFERENCE_MSG = {
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
} as const;
