import { sql } from "drizzle-orm";
import { check, index, integer, pgEnum, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { users } from "./users";

export const pointCosts = pgTable(
  "point_costs",
  {
    actionName: text("action_name").primaryKey(),
    displayName: text("display_name").notNull(),
    pointCost: integer("point_cost").notNull(),
    /** Ceiling from the legal fee table ("never higher"); null for actions outside that table. */
    maxCost: integer("max_cost"),
    description: text("description").notNull().default(""),
    sortOrder: integer("sort_order").notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("point_costs_nonnegative", sql`${t.pointCost} >= 0`),
    check("point_costs_capped", sql`${t.maxCost} is null or ${t.pointCost} <= ${t.maxCost}`),
  ],
);

export const ledgerAccountEnum = pgEnum("ledger_account", ["points", "send_points"]);
export const ledgerKindEnum = pgEnum("ledger_kind", [
  "initial",
  "charge",
  "prepaid_charge",
  "purchase",
  "admin_adjust",
  "refund",
]);

/**
 * Every change of a balance is a row here, written in the same transaction as the balance update:
 * for each user and account, the sum of `delta` equals the balance.
 */
export const pointLedger = pgTable(
  "point_ledger",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    account: ledgerAccountEnum("account").notNull().default("points"),
    kind: ledgerKindEnum("kind").notNull(),
    delta: integer("delta").notNull(),
    balanceAfter: integer("balance_after").notNull(),
    actionName: text("action_name"),
    quantity: integer("quantity"),
    /** What the change is for: a message id, a transaction id, a post id… */
    reference: text("reference"),
    /** Who caused it when it is not the member (an administrator). */
    actorId: uuid("actor_id").references(() => users.id),
    note: text("note"),
    createdAt: createdAt(),
  },
  (t) => [index("point_ledger_user_created_idx").on(t.userId, t.createdAt)],
);

/**
 * Units of an action paid in advance through the legacy `POST /api/users/deduct-points`; the next
 * matching action consumes them instead of charging again (ARCHITECTURE "Points are a ledger").
 */
export const prepaidActions = pgTable(
  "prepaid_actions",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    actionName: text("action_name").notNull(),
    remaining: integer("remaining").notNull(),
    unitCost: integer("unit_cost").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check("prepaid_remaining_nonnegative", sql`${t.remaining} >= 0`),
    index("prepaid_user_action_idx").on(t.userId, t.actionName, t.expiresAt),
  ],
);
