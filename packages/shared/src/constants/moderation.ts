/**
 * Reports, the screening of what members write and the review of profiles: their states and labels.
 * The states are PostgreSQL enums built from these lists, as in states.ts.
 */

/** What a member can report: a member, a message they sent or received, a board post. */
export const REPORT_TARGET_TYPES = ["member", "message", "board_post"] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

/** The reasons a member picks from, in the order the dialog lists them; `other` needs a detail. */
export const REPORT_REASONS = [
  { value: "underage", label: "18歳未満の疑い" },
  { value: "prostitution", label: "援助交際・売買春の勧誘" },
  { value: "business", label: "業者・勧誘" },
  { value: "harassment", label: "迷惑行為・嫌がらせ" },
  { value: "inappropriate", label: "不適切な内容" },
  { value: "other", label: "その他" },
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number]["value"];
/** The reasons' values alone, in the same order. */
export const REPORT_REASON_VALUES = REPORT_REASONS.map((r) => r.value) as [ReportReason, ...ReportReason[]];

/** open until an administrator handles it: dismissed, content removed, or the member suspended. */
export const REPORT_STATUSES = ["open", "dismissed", "removed", "suspended"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/**
 * Screening of what members write (docs/decisions/0042): each rule's kind of content, in the order
 * the administrators' screen lists them, with its label and the refusal's wording (which names the
 * kind of content, never the rule).
 */
export const SCREENING_CATEGORIES = [
  { value: "contact", label: "連絡先" },
  { value: "solicitation", label: "勧誘・援助" },
  { value: "minors", label: "未成年" },
  { value: "external", label: "外部サービス" },
  { value: "other", label: "その他" },
] as const;
export type ScreeningCategory = (typeof SCREENING_CATEGORIES)[number]["value"];
export const SCREENING_CATEGORY_VALUES = SCREENING_CATEGORIES.map((c) => c.value) as [
  ScreeningCategory,
  ...ScreeningCategory[],
];

/**
 * What a matching rule does: `mask` delivers the matching part as ＊＊＊, `hold` keeps the whole
 * item for an administrator to release or reject, `refuse` answers 400 and stores nothing. The
 * strongest action of the matching rules applies (refuse, then hold, then mask).
 */
export const SCREENING_ACTIONS = [
  { value: "mask", label: "伏せ字" },
  { value: "hold", label: "保留（確認待ち）" },
  { value: "refuse", label: "拒否" },
] as const;
export type ScreeningAction = (typeof SCREENING_ACTIONS)[number]["value"];
export const SCREENING_ACTION_VALUES = SCREENING_ACTIONS.map((a) => a.value) as [ScreeningAction, ...ScreeningAction[]];

/** A rule is a word (matched on the normalised text) or a regular expression (on the contact form). */
export const SCREENING_RULE_KINDS = ["word", "pattern"] as const;
export type ScreeningRuleKind = (typeof SCREENING_RULE_KINDS)[number];

/** What a held item is: a member's message, or a board post. */
export const SCREENING_HOLD_KINDS = ["message", "board_post"] as const;
export type ScreeningHoldKind = (typeof SCREENING_HOLD_KINDS)[number];

/** A held item waits (`held`) until an administrator releases it (delivered) or rejects it (refunded). */
export const SCREENING_HOLD_STATUSES = ["held", "released", "rejected"] as const;
export type ScreeningHoldStatus = (typeof SCREENING_HOLD_STATUSES)[number];

/** What replaces a masked part. */
export const SCREENING_MASK = "＊＊＊";

/** A member with this many held or refused items within SCREENING_FLAG_HOURS is flagged in the queue. */
export const SCREENING_FLAG_COUNT = 5;
export const SCREENING_FLAG_HOURS = 24;

/*
 * The review of profile photos and 自己紹介 (出会い系サイト規制法: the operator checks what members
 * show before other members see it; docs/decisions/0044).
 */

/** What a profile review is about: the photo or the 自己紹介. */
export const PROFILE_REVIEW_KINDS = ["photo", "introduction"] as const;
export type ProfileReviewKind = (typeof PROFILE_REVIEW_KINDS)[number];

/**
 * A change waits (`pending`) until an administrator approves it (copied into the profile) or
 * rejects it (never shown); `withdrawn`: the member changed it again or cleared it before a decision.
 */
export const PROFILE_REVIEW_STATUSES = ["pending", "approved", "rejected", "withdrawn"] as const;
export type ProfileReviewStatus = (typeof PROFILE_REVIEW_STATUSES)[number];

/** Why a change was not approved: the fixed list the administrators choose from (shown to the member and mailed). */
export const PROFILE_REJECT_REASONS = [
  { value: "photo_unsuitable", label: "顔がはっきり写っていない写真・他人の写真" },
  { value: "contact_details", label: "連絡先・外部サービスの記載" },
  { value: "offensive", label: "公序良俗に反する内容" },
  { value: "minor", label: "未成年と思われる内容" },
  { value: "other", label: "その他" },
] as const;
export type ProfileRejectReason = (typeof PROFILE_REJECT_REASONS)[number]["value"];
export const PROFILE_REJECT_REASON_VALUES = PROFILE_REJECT_REASONS.map((r) => r.value) as [
  ProfileRejectReason,
  ...ProfileRejectReason[],
];

/** The Japanese label of a reject reason (the value itself when unknown). */
export function profileRejectReasonLabel(value: string): string {
  return PROFILE_REJECT_REASONS.find((r) => r.value === value)?.label ?? value;
}

/** The member's dashboard says a change was approved for this many days after the decision. */
export const PROFILE_REVIEW_APPROVED_NOTICE_DAYS = 7;
