import { ID_IMAGE_RETENTION_HOURS, type VerificationStatus } from "@enmusubi/shared";

/** The age verification screens' text catalogue (decision 0006); the hours are the legal figure's. */
export const VERIFICATION_TEXT = {
  statuses: {
    unverified: "未提出",
    pending: "審査中",
    verified: "確認済み",
    rejected: "再提出が必要です",
  } satisfies Record<VerificationStatus, string>,
  law: "「インターネット異性紹介事業を利用して児童を誘引する行為の規制等に関する法律」（出会い系サイト規制法）第11条により、運営者は、会員がメッセージを送る・受け取る、掲示板を見る・書き込む前に、18歳以上であることを確認しなければなりません。年齢確認が終わるまで、これらの機能はご利用いただけません（運営からのお知らせはお読みいただけます）。",
  documents: [
    "運転免許証",
    "マイナンバーカード（表面のみ。裏面の個人番号は送らないでください）",
    "パスポート",
    "健康保険証（記号・番号・保険者番号は隠してください）",
    "住民基本台帳カード、在留カードなど、生年月日の分かる公的な身分証",
  ],
  masking: `生年月日・氏名・発行者以外の情報（本籍地・個人番号・記号番号など）は隠して撮影してください。画像は審査にのみ使い、審査が終わりしだい、遅くとも提出から${ID_IMAGE_RETENTION_HOURS}時間以内に削除します。運営者以外が見ることはありません。`,
  pending: `審査中です。通常${ID_IMAGE_RETENTION_HOURS}時間以内に結果をメールでお知らせします。`,
} as const;
