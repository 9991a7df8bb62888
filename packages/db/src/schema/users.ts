import { GENDERS, ROLES, VERIFICATION_STATUSES } from "@enmusubi/shared/constants";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { createdAt, id, updatedAt } from "./columns";
import { annualIncomes, occupations } from "./reference";

export const roleEnum = pgEnum("role", ROLES);
export const genderEnum = pgEnum("gender", GENDERS);
/**
 * Age verification (出会い系サイト規制法 art. 11): unverified → pending (ID image submitted) →
 * verified, or rejected (the member may submit again).
 */
export const verificationStatusEnum = pgEnum("verification_status", VERIFICATION_STATUSES);

export const users = pgTable(
  "users",
  {
    id: id(),
    /** The public login ID (spec "userID"). */
    userId: text("user_id").notNull(),
    name: text("name"),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: roleEnum("role").notNull().default("user"),
    gender: genderEnum("gender").notNull().default("male"),
    points: integer("points").notNull().default(0),
    sendPoints: integer("send_points").notNull().default(0),
    photoLink: text("photo_link"),
    birthday: date("birthday", { mode: "string" }),
    address: text("address"),
    occupationId: uuid("occupation_id").references(() => occupations.id, { onDelete: "set null" }),
    annualIncomeId: uuid("annual_income_id").references(() => annualIncomes.id, { onDelete: "set null" }),
    verificationStatus: verificationStatusEnum("verification_status").notNull().default("unverified"),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    /** Set while an administrator has suspended the account: no login, no token honoured. */
    suspendedAt: timestamp("suspended_at", { withTimezone: true }),
    /** Bumped on password change, deletion and suspension; tokens carry it, so older tokens stop working. */
    tokenVersion: integer("token_version").notNull().default(0),
    /**
     * A password reissued by mail (forgot password). The current password keeps working until this
     * one is first used to log in, which makes it the password; it lapses at the expiry.
     */
    pendingPasswordHash: text("pending_password_hash"),
    pendingPasswordExpiresAt: timestamp("pending_password_expires_at", { withTimezone: true }),
    /** 自己紹介: the member's own words (≤ 1,000 characters), shown only in the paid profile detail. */
    selfIntroduction: text("self_introduction").notNull().default(""),
    /**
     * When the member was last active: set at sign-in and by the session read at most once per
     * LAST_ACTIVE_REFRESH_MINUTES (context.ts). Never shown: the detail shows a bucket (decision 0029).
     * Null until the member's first sign-in or request: a new account is not "on the site"
     * (a notice mail is not held back for a member who never came; decision 0038).
     */
    lastActiveAt: timestamp("last_active_at", { withTimezone: true }),
    /**
     * The profile search's text (decision 0029): name and self-introduction normalised as the
     * board's (board_search_normalize: NFKC, lower case, kana folded), joined by U+001F. Kept by a
     * trigger (migration 0030), with its grams in member_search_grams.
     */
    searchText: text("search_text").notNull().default(""),
    /**
     * The version of the terms and the privacy policy the member accepted (TERMS_VERSION), with the
     * declaration of being 18 or older made at the same time, and when (decision 0034). Null: never
     * asked (the legacy REST sign-up, an administrator's account): the member shell asks once.
     */
    termsVersion: text("terms_version"),
    termsAcceptedAt: timestamp("terms_accepted_at", { withTimezone: true }),
    /**
     * 退会 (decision 0034): the member withdrew. `deleted_at` is set at the same moment (so every
     * rule that hides a deleted account hides them); this says it was the member's own act, which
     * an administrator may undo until the retention ends.
     */
    withdrawnAt: timestamp("withdrawn_at", { withTimezone: true }),
    /** When the retention job deleted the withdrawn member's personal data (name, e-mail, birthday, photo, ID images). */
    personalDataDeletedAt: timestamp("personal_data_deleted_at", { withTimezone: true }),
    /**
     * The mobile number the member verified by SMS, E.164 (`+819012345678`; decision 0048). Unique
     * over every row, live or not: a suspended or deleted account keeps its number taken, a
     * withdrawn one until the retention job deletes its personal data; an administrator may clear it.
     */
    phoneNumber: text("phone_number"),
    phoneVerifiedAt: timestamp("phone_verified_at", { withTimezone: true }),
    /**
     * True from a member's own sign-up until the sign-up bonus is granted at the phone's
     * verification (decision 0048): it becomes false once, in the granting transaction, and nothing
     * sets it back, so the bonus is granted once per account.
     */
    signupBonusPending: boolean("signup_bonus_pending").notNull().default(false),
    signupBonusGrantedAt: timestamp("signup_bonus_granted_at", { withTimezone: true }),
    /**
     * The last Japanese day (Asia/Tokyo) whose first signed-in request looked at the login bonus
     * (decision 0048): the session read compares it with today, so the other requests of the day
     * cost nothing. The bonus itself is kept once per day by login_bonuses' key.
     */
    loginBonusDay: date("login_bonus_day", { mode: "string" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    check("users_points_nonnegative", sql`${t.points} >= 0`),
    check("users_send_points_nonnegative", sql`${t.sendPoints} >= 0`),
    uniqueIndex("users_user_id_key").on(t.userId),
    uniqueIndex("users_email_live_key").on(sql`lower(${t.email})`).where(sql`${t.deletedAt} is null`),
    // One account per verified mobile number (decision 0048): every row that still holds one.
    uniqueIndex("users_phone_number_key").on(t.phoneNumber).where(sql`${t.phoneNumber} is not null`),
    index("users_role_created_idx").on(t.role, t.createdAt),
    // Withdrawn members, newest first (the administrators' list) and the retention job's due rows.
    index("users_withdrawn_idx")
      .on(t.withdrawnAt)
      .where(sql`${t.withdrawnAt} is not null and ${t.personalDataDeletedAt} is null`),
    // The admin user list: live users newest first (read backwards), paged (spec §2 admin screen 1).
    index("users_live_created_idx").on(t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    // userID prefix search, case-insensitive: lower(user_id) like 'ab12%'.
    index("users_user_id_prefix_idx").using("btree", sql`lower(${t.userId}) text_pattern_ops`),
    index("users_gender_created_idx").on(t.gender, t.createdAt),
    // The admin user list filtered by gender: its page and its count stopped at 10,001 read live
    // rows of one gender in order, not a whole gender (pnpm bench:lists, 1,000,000 members).
    index("users_live_gender_created_idx").on(t.gender, t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    // Profile search (members.search): live members of one gender, newest first (read backwards),
    // and the same members by birthday for the age filters (ages are compared as birthday bounds).
    index("users_search_gender_created_idx")
      .on(t.gender, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null and ${t.role} = 'user'`),
    index("users_search_gender_birthday_idx")
      .on(t.gender, t.birthday)
      .where(sql`${t.deletedAt} is null and ${t.role} = 'user'`),
    // … and by prefecture, newest first: the count of "gender + prefecture" (1 in 47) reads only
    // its matches instead of a whole gender (pnpm bench, 1,000,000 members).
    index("users_search_gender_address_created_idx")
      .on(t.gender, t.address, t.createdAt, t.id)
      .where(sql`${t.deletedAt} is null and ${t.role} = 'user'`),
    // Profile search, most recently active first (decision 0029): only the members it lists
    // (live, not suspended, members, age verified), of one gender or of both. Read forwards for
    // ORDER BY last_active_at DESC NULLS LAST, id DESC (never-active members last; decision 0038).
    index("users_search_gender_active_idx")
      .on(t.gender, t.lastActiveAt.desc().nullsLast(), t.id.desc().nullsFirst())
      .where(
        sql`${t.deletedAt} is null and ${t.suspendedAt} is null and ${t.role} = 'user' and ${t.verificationStatus} = 'verified'`,
      ),
    index("users_search_active_idx")
      .on(t.lastActiveAt.desc().nullsLast(), t.id.desc().nullsFirst())
      .where(
        sql`${t.deletedAt} is null and ${t.suspendedAt} is null and ${t.role} = 'user' and ${t.verificationStatus} = 'verified'`,
      ),
  ],
);

/**
 * Every distinct 1- and 2-character gram of a live member's search text (decision 0029, as the
 * board's board_post_grams, decision 0007): a keyword reads the members holding its rarest gram.
 * Kept by the trigger on users (migration 0030); no foreign key (rows go with the member's deletion).
 */
export const memberSearchGrams = pgTable(
  "member_search_grams",
  {
    gram: text("gram").notNull(),
    userId: uuid("user_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.gram, t.userId] })],
);

/**
 * Members signed up per Japanese calendar day (of `created_at`; role 'user'), kept by a statement
 * trigger on users (migration 0034) in the inserting transaction: the operator's dashboard reads
 * 30 rows for its sign-up chart and a week's figure instead of the members themselves
 * (docs/decisions/0036). A sign-up stays counted on its day after the account is deleted.
 */
export const memberDailySignups = pgTable("member_daily_signups", {
  day: date("day", { mode: "string" }).primaryKey(),
  count: bigint("count", { mode: "number" }).notNull(),
});

export const favorites = pgTable(
  "favorites",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    favoriteUserId: uuid("favorite_user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.favoriteUserId] }),
    check("favorites_not_self", sql`${t.userId} <> ${t.favoriteUserId}`),
  ],
);

/**
 * Paid profile views (spec §6 profile_view): one row per viewer and viewed member, with when the
 * viewer last paid. Viewing the same profile again within 24 hours of that is free; the row is the
 * lock that makes concurrent views charge once.
 */
export const profileViews = pgTable(
  "profile_views",
  {
    viewerId: uuid("viewer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    viewedId: uuid("viewed_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    chargedAt: timestamp("charged_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.viewerId, t.viewedId] })],
);

/**
 * Enlarged profile photos paid for (decision 0028): one row per viewer and member, the
 * time of the last charged enlargement. Claimed like profile_views (an upsert that succeeds only
 * when the last charge is older than the free window), so concurrent enlargements charge once.
 */
export const profilePhotoViews = pgTable(
  "profile_photo_views",
  {
    viewerId: uuid("viewer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    viewedId: uuid("viewed_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    chargedAt: timestamp("charged_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.viewerId, t.viewedId] })],
);

/** Footprints (足あと): who viewed a member's profile, one row per viewer per day (Japan time). */
export const footprints = pgTable(
  "footprints",
  {
    viewedId: uuid("viewed_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    viewerId: uuid("viewer_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    lastViewedAt: timestamp("last_viewed_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.viewedId, t.viewerId, t.day] }),
    index("footprints_viewed_recent_idx").on(t.viewedId, t.lastViewedAt),
  ],
);

export type UserRow = typeof users.$inferSelect;
