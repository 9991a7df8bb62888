/*
 * These states are stored as PostgreSQL enums: packages/db builds each enum from its list here,
 * so the database, the schemas and the screens name the same values (a new value: add it here,
 * then `pnpm --filter @enmusubi/db generate`).
 */

/** `card`: the card processor's hosted payment page, credited at once by its notification (decision 0046). */
export const PAYMENT_METHODS = ["bank_transfer", "smart_pit", "card"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const ROLES = ["user", "admin"] as const;
export type Role = (typeof ROLES)[number];
export const GENDERS = ["male", "female"] as const;
export type Gender = (typeof GENDERS)[number];
/** Age verification states (出会い系サイト規制法 art. 11); only `verified` members may do the four acts. */
export const VERIFICATION_STATUSES = ["unverified", "pending", "verified", "rejected"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

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

/**
 * A purchase's state (purchase_transactions.status). `refunded`: a paid card order the processor
 * refunded, its points taken back through the ledger (decision 0046).
 */
export const TRANSACTION_STATUSES = ["pending", "paid", "cancelled", "failed", "refunded"] as const;
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
  /** A card purchase the processor refunded: its unspent points taken back (decision 0046). */
  "purchase_reversal",
  /** Free points given with a purchase (first purchase, amount tier, campaign): decision 0047. */
  "purchase_bonus",
  /** Free points granted once per account when its phone is verified (decision 0048). */
  "signup_bonus",
  /** The daily login bonus of a phone-verified member, once per Japanese day (decision 0048). */
  "login_bonus",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** An outgoing mail's state in the outbox. */
export const MAIL_STATUSES = ["pending", "sent", "failed"] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];
