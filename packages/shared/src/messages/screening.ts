/** Screening of what members write and the held-item queue (docs/decisions/0042; ours: not in the spec). */
export const SCREENING_MSG = {
  /** Refusals name the kind of content (the rule's category), never the rule that matched. */
  screeningRefusedContact: "電話番号・メールアドレス・URLなどの連絡先は送信できません。",
  screeningRefusedSolicitation: "援助交際など金銭を伴う交際の勧誘にあたる内容は送信できません。",
  screeningRefusedMinors: "18歳未満の方に関わる内容は送信できません。",
  screeningRefusedExternal: "外部サービスのIDなど、サイトの外での連絡につながる内容は送信できません。",
  screeningRefusedOther: "利用規約で禁止されている内容が含まれているため送信できません。",
  /** A name (ニックネーム) cannot be masked or wait: any matching rule refuses it. */
  screeningNameRefused: "このニックネームは使用できません。連絡先や禁止されている言葉を含まないものにしてください。",
  screeningPatternRequired: "言葉またはパターンを入力してください。",
  screeningPatternTooLong: "言葉またはパターンは200文字以内で入力してください。",
  screeningPatternInvalid: "正規表現として正しくないパターンです。",
  /** A word that normalises to nothing (only spaces or symbols) would match nothing. */
  screeningWordEmpty: "記号や空白だけの言葉は登録できません。",
  screeningRuleDuplicate: "同じ言葉またはパターンのルールがすでにあります。",
  screeningCategoryInvalid: "分類を選択してください。",
  screeningActionInvalid: "対応を選択してください。",
  screeningNoteTooLong: "メモは500文字以内で入力してください。",
  screeningReasonRequired: "却下の理由を入力してください。",
  screeningReasonTooLong: "理由は500文字以内で入力してください。",
  /** An administrator acts on a held item another one already released or rejected. */
  screeningAlreadyDecided: "この投稿・メッセージはすでに対応済みです。",
  /** A member's send or post a rule held: the member sees 「確認中」 and is not told why. */
  messageHeldForReview: "メッセージは確認中です。確認が終わりしだいお届けします。",
  postHeldForReview: "投稿は確認中です。確認が終わりしだい掲示板に表示されます。",
  screeningRuleSaved: "ルールを保存しました。",
  screeningRuleDeleted: "ルールを削除しました。",
  screeningReleased: "公開しました。",
  screeningRejected: "却下しました。ポイントは返還されました。",
} as const;
