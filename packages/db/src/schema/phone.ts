import { LOGIN_BONUS_MAX_POINTS, PHONE_VERIFICATION } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import { check, date, index, integer, pgTable, primaryKey, smallint, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { pointLedger } from "./points";
import { users } from "./users";

/**
 * Codes sent by SMS to verify a member's mobile number (decision 0048). Only a hash of the code is
 * kept (SHA-256 of the row's id and the code). The member's newest code is the one that counts;
 * `attempts` is bumped before each check, so at most PHONE_VERIFICATION.maxAttempts checks reach
 * a code, and a code past its expiry, used or out of attempts is dead.
 */
export const phoneVerificationCodes = pgTable(
  "phone_verification_codes",
  {
    id: id(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    /** E.164, the number the code was sent to and will verify. */
    phoneNumber: text("phone_number").notNull(),
    codeHash: text("code_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    /** When the right code verified the number. */
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check(
      "phone_codes_attempts_range",
      sql`${t.attempts} >= 0 and ${t.attempts} <= ${sql.raw(String(PHONE_VERIFICATION.maxAttempts))}`,
    ),
    index("phone_codes_user_created_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * One row per member and Japanese day a login bonus was granted (decision 0048): the key makes it
 * once per day whichever process serves the day's first request, the ledger row is its credit.
 */
export const loginBonuses = pgTable(
  "login_bonuses",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id),
    /** The Japanese day (Asia/Tokyo). */
    day: date("day", { mode: "string" }).notNull(),
    points: integer("points").notNull(),
    ledgerId: uuid("ledger_id")
      .notNull()
      .references(() => pointLedger.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] }), check("login_bonuses_points_positive", sql`${t.points} > 0`)],
);

/**
 * The bonuses administrators set in the back office (one row, id 1; none yet means the defaults):
 * the daily login bonus in points, 0 = off (decision 0048).
 */
export const bonusSettings = pgTable(
  "bonus_settings",
  {
    id: smallint("id").primaryKey().default(1),
    loginBonusPoints: integer("login_bonus_points").notNull().default(0),
    updatedBy: uuid("updated_by").references(() => users.id),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("bonus_settings_one_row", sql`${t.id} = 1`),
    check(
      "bonus_settings_login_bonus_range",
      sql`${t.loginBonusPoints} >= 0 and ${t.loginBonusPoints} <= ${sql.raw(String(LOGIN_BONUS_MAX_POINTS))}`,
    ),
  ],
);
