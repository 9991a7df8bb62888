/**
 * Legal figures (spec §9; decision 0010): each stated once here and read by the code that enforces
 * it and by the texts that state it. The operator's particulars (name, address, phone, the support
 * address) are facts of the deployment, not of the code: they come from the server's configuration
 * (OPERATOR_*) through `legal.info`, never from here.
 */

/** Members must be this old (出会い系サイト規制法 art. 11). */
export const MIN_AGE = 18;

/**
 * ID images are deleted at review, and at the latest this many hours after submission, whatever
 * their state (the privacy policy's promise; decision 0006): the retention job, the refusal it
 * mails, the verification screens and the legal pages all read this figure.
 */
export const ID_IMAGE_RETENTION_HOURS = 24;

/**
 * The version of the terms and the privacy policy a member accepts (decision 0034). Raise it when
 * either text changes in substance: members who accepted an older one are asked again.
 */
export const TERMS_VERSION = "2026-11-28";
/**
 * What changed in TERMS_VERSION, said by the consent gate to a member who accepted an older version
 * (decision 0043: the monitoring of messages, board posts and profile texts needs their consent).
 */
export const TERMS_CHANGE_SUMMARY =
  "メッセージ・掲示板の投稿・プロフィールの文章を、安全のためと出会い系サイト規制法を守るために、自動で確認し（連絡先などを伏せ字にしたり、運営の確認まで公開を保留したりすることがあります）、運営スタッフが確認することを利用規約とプライバシーポリシーに明記しました。";
/** Legal facts reproduced in the legal pages (spec §9). */
export const LEGAL = {
  lateDamagesPercentPerYear: 14.6,
  accountRetentionYears: 1,
  usageHistoryRetentionYears: 3,
  defectiveExchangeDays: 7,
  /**
   * The one set of hours every legal page states: the 営業時間 of 特商法 and the hours in which
   * mail and calls are answered (two figures, 9:00–17:00 and 9:00–18:00, contradicted each other; decision 0043).
   */
  businessHours: "平日 9:00〜18:00",
  /** The date of TERMS_VERSION, as the legal pages print it. */
  lastUpdated: "2026年11月28日",
} as const;
