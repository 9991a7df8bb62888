import { sql } from "drizzle-orm";
import {
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

export const roleEnum = pgEnum("role", ["user", "admin"]);
export const genderEnum = pgEnum("gender", ["male", "female"]);

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
    /** Bumped on password change and deletion; tokens carry it, so older tokens stop working. */
    tokenVersion: integer("token_version").notNull().default(0),
    failedLoginCount: integer("failed_login_count").notNull().default(0),
    lastFailedLoginAt: timestamp("last_failed_login_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
  },
  (t) => [
    check("users_points_nonnegative", sql`${t.points} >= 0`),
    check("users_send_points_nonnegative", sql`${t.sendPoints} >= 0`),
    uniqueIndex("users_user_id_key").on(t.userId),
    uniqueIndex("users_email_live_key").on(sql`lower(${t.email})`).where(sql`${t.deletedAt} is null`),
    index("users_role_created_idx").on(t.role, t.createdAt),
    // The admin user list: live users newest first (read backwards), paged (spec §2 admin screen 1).
    index("users_live_created_idx").on(t.createdAt, t.id).where(sql`${t.deletedAt} is null`),
    // userID prefix search, case-insensitive: lower(user_id) like 'ab12%'.
    index("users_user_id_prefix_idx").using("btree", sql`lower(${t.userId}) text_pattern_ops`),
    index("users_gender_created_idx").on(t.gender, t.createdAt),
  ],
);

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

export type UserRow = typeof users.$inferSelect;
