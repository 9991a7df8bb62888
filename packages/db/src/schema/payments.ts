import { PAYMENT_METHODS, TRANSACTION_STATUSES } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { users } from "./users";

export const paymentMethodEnum = pgEnum("payment_method", PAYMENT_METHODS);
export const transactionStatusEnum = pgEnum("transaction_status", TRANSACTION_STATUSES);

export const purchaseTransactions = pgTable(
  "purchase_transactions",
  {
    id: id(),
    /** Human-readable reference shown to members and administrators. */
    transactionId: text("transaction_id").notNull().unique(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    paymentMethod: paymentMethodEnum("payment_method").notNull(),
    amount: integer("amount").notNull(),
    points: integer("points").notNull(),
    status: transactionStatusEnum("status").notNull().default("pending"),
    confirmedById: uuid("confirmed_by_id").references(() => users.id),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    cancelledAt: timestamp("cancelled_at", { withTimezone: true }),
    /** Who confirmed a paid row: an administrator (`confirmedById`) or SmartPit's signed notification. */
    confirmedVia: text("confirmed_via"),
    smartPitPaymentCode: text("smart_pit_payment_code"),
    smartPitBarcode: text("smart_pit_barcode"),
    /** Until when the convenience store accepts the payment code. */
    smartPitExpiresAt: timestamp("smart_pit_expires_at", { withTimezone: true }),
    /**
     * A cancelled or expired order paid at a store afterwards and credited then (status back to
     * `paid`, confirmedVia smartpit): when, and the notification that did it (docs/decisions).
     */
    reinstatedAt: timestamp("reinstated_at", { withTimezone: true }),
    /** The card processor's own id of the payment, from its notification (decision 0046). */
    cardProcessorRef: text("card_processor_ref"),
    /** A paid card order the processor refunded and whose points were taken back (status `refunded`). */
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    /** Free points booked with the credit (purchase_bonus_grants, decision 0047); 0 until paid. */
    bonusPoints: integer("bonus_points").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("purchase_amount_positive", sql`${t.amount} > 0`),
    check("purchase_points_positive", sql`${t.points} > 0`),
    check("purchase_bonus_points_nonnegative", sql`${t.bonusPoints} >= 0`),
    check(
      "purchase_confirmed_via",
      sql`${t.confirmedVia} is null or ${t.confirmedVia} in ('admin', 'smartpit', 'card')`,
    ),
    index("purchase_status_created_idx").on(t.status, t.createdAt),
    index("purchase_user_created_idx").on(t.userId, t.createdAt),
    // The administrators' transaction list, newest first, without a filter (or filtered by method).
    index("purchase_created_idx").on(t.createdAt, t.id),
  ],
);

/**
 * Count, yen and points of the purchase transactions per Japanese calendar day (of `created_at`),
 * status and method, kept by statement triggers on purchase_transactions (migration 0024) in the
 * writing transaction: the transaction list's totals add up a few of these rows instead of every
 * transaction of the filter (docs/decisions/0011).
 */
export const purchaseDailyTotals = pgTable(
  "purchase_daily_totals",
  {
    day: date("day").notNull(),
    status: transactionStatusEnum("status").notNull(),
    paymentMethod: paymentMethodEnum("payment_method").notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
    points: bigint("points", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.status, t.paymentMethod] })],
);

/** A single row (id = 1) holding the payment settings of spec §3. */
export const paymentSettings = pgTable(
  "payment_settings",
  {
    id: integer("id").primaryKey().default(1),
    exchangeYenAmount: integer("exchange_yen_amount").notNull(),
    exchangePointAmount: integer("exchange_point_amount").notNull(),
    exchangeIsActive: boolean("exchange_is_active").notNull().default(true),
    bankAccountName: text("bank_account_name").notNull().default(""),
    bankAccountNumber: text("bank_account_number").notNull().default(""),
    bankName: text("bank_name").notNull().default(""),
    bankBranchName: text("bank_branch_name").notNull().default(""),
    bankAccountType: text("bank_account_type").notNull().default("普通"),
    bankIsActive: boolean("bank_is_active").notNull().default(false),
    smartPitId: text("smart_pit_id").notNull().default(""),
    smartPitApiKey: text("smart_pit_api_key").notNull().default(""),
    smartPitIsActive: boolean("smart_pit_is_active").notNull().default(true),
    minimumPurchase: integer("minimum_purchase").notNull(),
    maximumPurchase: integer("maximum_purchase").notNull(),
    bankTransferBalance: integer("bank_transfer_balance").notNull().default(0),
    /** The card processor (decision 0046): merchant id, the HMAC secret, its hosted payment page. */
    cardMerchantId: text("card_merchant_id").notNull().default(""),
    cardSecret: text("card_secret").notNull().default(""),
    cardPaymentUrl: text("card_payment_url").notNull().default(""),
    cardIsActive: boolean("card_is_active").notNull().default(false),
    /** A member's first completed card payment marks the account verified (出会い系サイト規制法施行規則). */
    cardAgeVerification: boolean("card_age_verification").notNull().default(false),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("payment_settings_single_row", sql`${t.id} = 1`),
    check("payment_settings_rate_positive", sql`${t.exchangeYenAmount} >= 1 and ${t.exchangePointAmount} >= 1`),
    check("payment_settings_limits", sql`${t.minimumPurchase} >= 100 and ${t.maximumPurchase} >= 1000`),
    check("payment_settings_balance", sql`${t.bankTransferBalance} >= 0`),
  ],
);

/** What became of a payment notification (SmartPit's signed call), one row per call received. */
export const NOTIFICATION_OUTCOMES = [
  /** a pending order paid and credited */
  "credited",
  /** a cancelled or expired order paid late and credited (the order back to paid) */
  "reinstated",
  /** a replayed nonce, or an order already paid: nothing done */
  "duplicate",
  /** money that arrived and could not be credited: listed for the administrators to settle or refund */
  "unsettled",
  /** the signature (or its timestamp window) did not verify */
  "refused_signature",
  /** a signed body that is not a notification */
  "refused_invalid",
  /** no order with that reference and payment code */
  "refused_unknown",
  /** the amount differs from the order's */
  "refused_amount",
  /** the card processor declined or the member abandoned the payment: a pending order ends failed (decision 0046) */
  "declined",
  /** the card processor refunded a paid order: its points taken back through the ledger (decision 0046) */
  "reversed",
] as const;
export type NotificationOutcome = (typeof NOTIFICATION_OUTCOMES)[number];
/**
 * Why money could not be credited: the member's account is deleted, or the credit would pass the
 * balance column; `points_spent`: a refunded card purchase whose points are no longer all there to
 * take back (decision 0046).
 */
export const UNSETTLED_REASONS = ["account_closed", "overflow", "points_spent"] as const;
export type UnsettledReason = (typeof UNSETTLED_REASONS)[number];

/**
 * Every payment notification received, with what became of it. The money of an `unsettled` one is
 * owed to someone: an administrator marks it settled or refunded (`resolution`, audited).
 */
export const paymentNotifications = pgTable(
  "payment_notifications",
  {
    id: id(),
    provider: text("provider").notNull(),
    /** The order reference and payment code the body named (cut to 64 characters), when it named them. */
    transactionRef: text("transaction_ref"),
    paymentCode: text("payment_code"),
    amount: bigint("amount", { mode: "number" }),
    /** The order it matched, when it matched one. */
    purchaseTransactionId: uuid("purchase_transaction_id").references(() => purchaseTransactions.id),
    outcome: text("outcome").$type<NotificationOutcome>().notNull(),
    reason: text("reason").$type<UnsettledReason>(),
    /** What was received, without the signature: paidAt, nonce, the signature check's verdict. */
    summary: jsonb("summary").$type<Record<string, unknown>>().notNull().default({}),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    resolution: text("resolution").$type<"settled" | "refunded">(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    resolvedById: uuid("resolved_by_id").references(() => users.id),
    resolutionNote: text("resolution_note"),
  },
  (t) => [
    check(
      "payment_notifications_outcome",
      sql`${t.outcome} in ('credited', 'reinstated', 'duplicate', 'unsettled', 'refused_signature', 'refused_invalid', 'refused_unknown', 'refused_amount', 'declined', 'reversed')`,
    ),
    check(
      "payment_notifications_reason",
      sql`(${t.outcome} = 'unsettled') = (${t.reason} is not null) and (${t.reason} is null or ${t.reason} in ('account_closed', 'overflow', 'points_spent'))`,
    ),
    check(
      "payment_notifications_resolution",
      sql`(${t.resolution} is null or (${t.outcome} = 'unsettled' and ${t.resolution} in ('settled', 'refunded') and ${t.resolvedAt} is not null and ${t.resolvedById} is not null))`,
    ),
    index("payment_notifications_received_idx").on(t.receivedAt, t.id),
    index("payment_notifications_outcome_received_idx").on(t.outcome, t.receivedAt, t.id),
    index("payment_notifications_transaction_idx").on(t.purchaseTransactionId),
  ],
);

/**
 * Nonces of SmartPit payment notifications already accepted: a captured notification sent again is
 * refused even within its timestamp window.
 */
export const paymentNotificationNonces = pgTable(
  "payment_notification_nonces",
  {
    nonce: text("nonce").primaryKey(),
    provider: text("provider").notNull(),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("payment_notification_nonces_received_idx").on(t.receivedAt)],
);
