/** Business constants of spec §9. Every number the product shows or enforces lives here. */

export const POINT_VALIDITY_YEARS = 3;
/** Free points (the sign-up bonus, an administrator's grant) are valid this many days (decision 0008). */
export const FREE_POINT_VALIDITY_DAYS = 180;
/** A notice mail goes this many days before a lot's points expire, once per lot (decision 0034). */
export const POINT_EXPIRY_NOTICE_DAYS = 7;

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
/** What members see in place of a withdrawn member's name. */
export const WITHDRAWN_MEMBER_NAME = "退会したユーザー";

export const PASSWORD_MIN_LENGTH = 6;
export const MIN_AGE = 18;

export const SIGNUP_REDIRECT_MS = 3000;
export const MODAL_CLOSE_MS = 300;
export const BANNER_MS = 3000;
export const SCHEDULER_POLL_MS = 5000;
export const SCHEDULED_STORAGE_KEY = "scheduled_messages_v1";

export const IMAGE_MAX_SIDE = 2048;
export const IMAGE_JPEG_QUALITY = 0.8;
/** The card thumbnail of every photo (public); the full-size image is served signed only (decision 0028). */
export const THUMBNAIL_MAX_SIDE = 320;
/** Largest upload the server accepts before decoding (the browser already downscales). */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

export const BREAKPOINTS = {
  loginNarrow: 320,
  signupLanding: 768,
  adminMenuCollapseBelow: 768,
  memberMenuDrawerAtOrBelow: 768,
} as const;

export const NEW_USER_DEFAULTS = { points: 100, sendPoints: 20, role: "user" } as const;
export const DEFAULT_NEW_POINT_COST = 5;
/** Viewing the same profile again within this many hours of the last paid view is free. */
export const PROFILE_VIEW_FREE_HOURS = 24;
/** Enlarging the same member's photo again within this many hours of the last paid enlargement is free. */
export const PHOTO_VIEW_FREE_HOURS = 24;
/** How long a signed full-size photo URL is honoured, in seconds (decision 0028). */
export const PHOTO_URL_TTL_SECONDS = 300;

/**
 * A member's message not yet opened (paid, unread_mail_view) is listed with at most this many of its
 * first characters (code points), never more than half of it, on one line, then "…" (decision 0027).
 */
export const MESSAGE_PREVIEW_CHARS = 20;

export const EXCHANGE_RATE_DEFAULT = { yenAmount: 1000, pointAmount: 500, isActive: true } as const;
export const PURCHASE_LIMIT_DEFAULTS = { minimumPurchase: 1000, maximumPurchase: 100000 } as const;
export const BANK_TRANSFER_BALANCE_DEFAULT = 0;
/**
 * Points one order may buy at most: the settings are refused when the maximum purchase at the rate
 * would buy more (the same bound as an administrator's balance edit, 100,000,000).
 */
export const POINTS_PER_ORDER_MAX = 100_000_000;
/**
 * A member's balance plus the points of their pending orders may not pass this: an order that would
 * is refused when it is placed, before anyone pays, so a confirmation always fits the balance column
 * (PostgreSQL integer, 2,147,483,647) with room to spare (docs/decisions/0018).
 */
export const POINT_BALANCE_CEILING = 1_000_000_000;

export const TRANSACTIONS_PAGE_SIZE = 20;
export const ADMIN_MESSAGE_PAGE_SIZES = [25, 50, 100, 200] as const;
export const ADMIN_MESSAGE_PAGE_SIZE_DEFAULT = 50;
export const PAGE_BUTTON_WINDOW = 5;
export const MESSAGE_HISTORY_COUNT = 5;
export const BOARD_PAGE_SIZE = 10;
/** One paid board entry (message_board_view) opens the board this long: paging and searching inside are free. */
export const BOARD_ENTRY_MINUTES = 30;

export const LONG_TEXT_COLLAPSE_CHARS = 100;
export const POST_CONTENT_FOLD_CHARS = 150;
export const POST_TITLE_MAX = 100;
export const INQUIRY_TITLE_MAX = 100;
export const INQUIRY_MESSAGE_MAX = 1000;
export const EMOJI_PICKER_SIZES = { large: 60, favourites: 20, board: 30 } as const;
export const EMOJI_PICKER_COLUMNS = 10;

export const PAYMENT_METHODS = ["bank_transfer", "smart_pit"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const ROLES = ["user", "admin"] as const;
export type Role = (typeof ROLES)[number];
export const GENDERS = ["male", "female"] as const;
export type Gender = (typeof GENDERS)[number];
/** Age verification states (出会い系サイト規制法 art. 11); only `verified` members may do the four acts. */
export const VERIFICATION_STATUSES = ["unverified", "pending", "verified", "rejected"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

/*
 * The states below are stored as PostgreSQL enums: packages/db builds each enum from its list here,
 * so the database, the schemas and the screens name the same values (a new value: add it here,
 * then `pnpm --filter @enmusubi/db generate`).
 */

/** An ID image submission's review state (id_verifications.status). */
export const ID_VERIFICATION_STATES = ["pending", "approved", "rejected"] as const;
export type IdVerificationState = (typeof ID_VERIFICATION_STATES)[number];

/**
 * The kind of ID an administrator read the birth date from (id_verifications.document_kind): when
 * creating a member, and in the labels of the screens (decision 0043).
 */
export const ID_DOCUMENT_KINDS = [
  "drivers_license",
  "my_number_card",
  "passport",
  "health_insurance",
  "other",
] as const;
export type IdDocumentKind = (typeof ID_DOCUMENT_KINDS)[number];
export const ID_DOCUMENT_LABELS: Record<IdDocumentKind, string> = {
  drivers_license: "運転免許証",
  my_number_card: "マイナンバーカード",
  passport: "パスポート",
  health_insurance: "健康保険証",
  other: "その他",
};

/** A purchase's state (purchase_transactions.status). */
export const TRANSACTION_STATUSES = ["pending", "paid", "cancelled", "failed"] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Scheduled messages: to one member, to several, or a reply. */
export const SCHEDULED_TYPES = ["direct", "batch", "reply"] as const;
export type ScheduledType = (typeof SCHEDULED_TYPES)[number];

/** Where the entry was scheduled from (spec §3 plus the screens that schedule since). */
export const SCHEDULED_SOURCES = [
  "admin:user-mgmt",
  "admin:sent",
  "admin:inbox",
  "admin:email-mgmt",
  "user:favorite",
  "user:unread",
  "user:received",
  "user:search",
  "user:sent",
] as const;
export type ScheduledSource = (typeof SCHEDULED_SOURCES)[number];

export const SCHEDULED_STATUSES = ["pending", "sending", "sent", "failed", "cancelled"] as const;
export type ScheduledStatus = (typeof SCHEDULED_STATUSES)[number];

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

export const BOARD_REACTIONS = ["like", "dislike"] as const;
export type BoardReaction = (typeof BOARD_REACTIONS)[number];

/** The two balances of an account: points, and the free send points an administrator grants. */
export const LEDGER_ACCOUNTS = ["points", "send_points"] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/** Why a balance changed (point_ledger.kind); `expire`: unspent points of a lapsed lot (docs/decisions/0008). */
export const LEDGER_KINDS = [
  "initial",
  "charge",
  "prepaid_charge",
  "purchase",
  "admin_adjust",
  "refund",
  "expire",
  /** The balance of a member who withdrew (退会): unused points are forfeited (decision 0034). */
  "forfeit",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** An outgoing mail's state in the outbox. */
export const MAIL_STATUSES = ["pending", "sent", "failed"] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** Actions the legacy client names explicitly (spec §3 "Point cost"). */
export const KNOWN_ACTIONS = {
  profileView: "profile_view",
  sendMessage: "send_message",
  messageBoardView: "message_board_view",
} as const;

export interface PointCostSeed {
  actionName: string;
  displayName: string;
  /** Initial fee of the legal table: the seeded cost and the ceiling a cost may never exceed. */
  initialFee: number;
  /** Used by the client when the cost list cannot be fetched (spec §9 fallback table). */
  fallbackCost: number;
  description: string;
  /**
   * Charged by the product today (a paid procedure or the scheduled batch charges it): only these
   * are listed to members as prices (the points usage page, the terms, 特商法, the legacy list).
   * The other rows stay for the administrators, marked as not offered (docs/decisions/0026).
   */
  offered: boolean;
}

/** The twelve rows of the legal initial fee table (spec §9), in the order the legal text lists them. */
const POINT_COST_ROWS = [
  {
    actionName: "message_board_view",
    displayName: "掲示板閲覧",
    initialFee: 10,
    fallbackCost: 5,
    description: "掲示板を開いたときに消費されます。",
    offered: true,
  },
  {
    actionName: "profile_view",
    displayName: "プロフィール閲覧",
    initialFee: 15,
    fallbackCost: 5,
    description: "他の会員のプロフィール詳細を開いたときに消費されます。",
    offered: true,
  },
  {
    actionName: "send_message",
    displayName: "通常メッセージ送信",
    initialFee: 48,
    fallbackCost: 0,
    description: "会員へメッセージを1通送るごとに消費されます。管理者への返信は無料です。",
    offered: true,
  },
  {
    actionName: "message_board_post",
    displayName: "掲示板投稿",
    initialFee: 15,
    fallbackCost: 0,
    description: "掲示板に投稿したときに消費されます。",
    offered: true,
  },
  {
    actionName: "address_mail_send",
    displayName: "アドレスメール送信",
    initialFee: 48,
    fallbackCost: 1000,
    description: "アドレスメールを送信したときに消費されます。",
    offered: false,
  },
  {
    actionName: "address_mail_view",
    displayName: "アドレスメール閲覧",
    initialFee: 20,
    fallbackCost: 500,
    description: "アドレスメールを閲覧したときに消費されます。",
    offered: false,
  },
  {
    actionName: "unread_mail_view",
    displayName: "未読メッセージ閲覧",
    initialFee: 20,
    fallbackCost: 0,
    description: "未読メッセージを開いたときに消費されます。",
    offered: true,
  },
  {
    actionName: "read_mail_view",
    displayName: "既読メッセージ閲覧",
    initialFee: 0,
    fallbackCost: 0,
    description: "既読メッセージの再閲覧は無料です。",
    offered: true,
  },
  {
    actionName: "profile_photo_view",
    displayName: "プロフィール写真閲覧",
    initialFee: 20,
    fallbackCost: 0,
    description: "プロフィール写真を拡大表示したときに消費されます。",
    offered: true,
  },
  {
    actionName: "mail_attachment_photo_view",
    displayName: "メッセージ添付写真閲覧",
    initialFee: 50,
    fallbackCost: 0,
    description: "メッセージに添付された写真を閲覧したときに消費されます。",
    offered: false,
  },
  {
    actionName: "photo_registration",
    displayName: "写真登録",
    initialFee: 50,
    fallbackCost: 5,
    description: "プロフィール写真を登録したときに消費されます。",
    offered: false,
  },
  {
    actionName: "movie_play",
    displayName: "動画再生",
    initialFee: 500,
    fallbackCost: 0,
    description: "動画を再生したときに消費されます。",
    offered: false,
  },
] as const satisfies readonly PointCostSeed[];

export const POINT_COST_TABLE: readonly PointCostSeed[] = POINT_COST_ROWS;

/** The actions members are shown a price for: exactly those the product charges (see `offered`). */
export const OFFERED_ACTIONS: ReadonlySet<string> = new Set(
  POINT_COST_ROWS.filter((row) => row.offered).map((row) => row.actionName),
);

/** The name of a point-cost action, from the table above: a paid procedure names one (a typo does not compile). */
export type PointAction = (typeof POINT_COST_ROWS)[number]["actionName"];

/** Legal facts reproduced in the legal pages (spec §9). */
export const LEGAL = {
  lateDamagesPercentPerYear: 14.6,
  idImageDeletionHours: 24,
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
  /** ours: where members (and migrated users whose old ID no longer works) write to. */
  supportEmail: "support@enmusubi.jp",
  operatorName: "縁結び運営事務局",
} as const;

/** The 47 prefectures, for the member's address (spec §3 User.address; the profile asks for the prefecture). */
export const PREFECTURES = [
  "北海道",
  "青森県",
  "岩手県",
  "宮城県",
  "秋田県",
  "山形県",
  "福島県",
  "茨城県",
  "栃木県",
  "群馬県",
  "埼玉県",
  "千葉県",
  "東京都",
  "神奈川県",
  "新潟県",
  "富山県",
  "石川県",
  "福井県",
  "山梨県",
  "長野県",
  "岐阜県",
  "静岡県",
  "愛知県",
  "三重県",
  "滋賀県",
  "京都府",
  "大阪府",
  "兵庫県",
  "奈良県",
  "和歌山県",
  "鳥取県",
  "島根県",
  "岡山県",
  "広島県",
  "山口県",
  "徳島県",
  "香川県",
  "愛媛県",
  "高知県",
  "福岡県",
  "佐賀県",
  "長崎県",
  "熊本県",
  "大分県",
  "宮崎県",
  "鹿児島県",
  "沖縄県",
] as const;

/**
 * The longest URL a tRPC batch of the web app may have (httpBatchLink's `maxURLLength`: a longer
 * batch is split into several requests), and the longest path parameter the server's router
 * accepts (Fastify's `maxParamLength`, 100 by default). A batch of queries names its procedures
 * in the path (`/trpc/a,b,c?batch=1&input=…`), so with the default a page's batched reads passed
 * the limit and were refused (414) (issue 21).
 */
export const TRPC_MAX_URL_LENGTH = 2000;

/**
 * Why a refusal was made, machine-readable, beside its Japanese message (tRPC `error.data.reason`,
 * decision 0032): clients show the way out (the verification page) instead of the message text.
 */
export const REFUSAL_REASONS = { verificationRequired: "verification_required" } as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[keyof typeof REFUSAL_REASONS];

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
