/** Point costs and charges (spec §8 Point deduction and admin alerts; the rest ours). */
export const POINTS_MSG = {
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
