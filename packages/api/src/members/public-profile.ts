import { annualIncomes, type Db, favorites, occupations, users } from "@enmusubi/db";
import { ageOn } from "@enmusubi/shared";
import { and, eq, isNull, type Placeholder, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { carriedCount } from "../lists/capped-count";
import { thumbnailLink } from "../photos/storage";
import { referenceColumns, toReferences } from "../users/user-view";
import { isVerified } from "../verification/standing";

/**
 * How members see other members (ARCHITECTURE "public profile shape"): name, photo, gender, age,
 * prefecture, occupation, income, registration date and whether the member's age verification is
 * approved (the 年齢確認済み badge; only verified members can read members' messages, decisions
 * 0006 and 0025 — the status itself, pending or rejected, is not shown). Email, points, send points, role, birthday
 * and the login ID never leave the server in a member-facing answer; the columns are listed here
 * one by one so nothing else can slip in. (The login ID is half of a member's credentials.)
 */
export interface PublicProfile {
  id: string;
  name: string | null;
  /**
   * The photo's card thumbnail (`/uploads/thumbs/…`, public), never the full-size image: that is
   * sold through members.viewPhoto as a short-lived signed URL (decision 0028). An outside http(s)
   * link an administrator set is shown as it is.
   */
  photoLink: string | null;
  gender: "male" | "female";
  /** Whole years, from the birthday (which itself is never shown). */
  age: number | null;
  /** The prefecture the member chose (stored as the address). */
  prefecture: string | null;
  occupation: { id: string; name: string } | null;
  annualIncome: { id: string; label: string } | null;
  createdAt: Date;
  /** Age verification approved: the 年齢確認済み badge, and whether they can read a message. */
  verified: boolean;
}

const publicColumns = {
  id: users.id,
  name: users.name,
  photoLink: users.photoLink,
  gender: users.gender,
  birthday: users.birthday,
  address: users.address,
  ...referenceColumns,
  createdAt: users.createdAt,
  verificationStatus: users.verificationStatus,
};

type PublicRow = Awaited<ReturnType<typeof selectPublicProfiles>>[number];

export function toPublicProfile(row: PublicRow, today = new Date()): PublicProfile {
  return {
    id: row.id,
    name: row.name,
    photoLink: thumbnailLink(row.photoLink),
    gender: row.gender,
    age: row.birthday ? ageOn(row.birthday, today) : null,
    prefecture: row.address,
    ...toReferences(row),
    createdAt: row.createdAt,
    verified: isVerified(row.verificationStatus),
  };
}

/**
 * The members other members may reach (decision 0015): live (not deleted), not suspended, never an
 * administrator. Every member-facing list (search, favourites, footprints, contacts, the board and
 * who liked or read a post) shows only these, and every action aimed at a member (profile view,
 * message or reply, favourite, scheduled message, reaction to or read of their post) refuses
 * anyone else with NOT_FOUND before anything is charged: a suspended member cannot sign in, so
 * nobody should pay to reach them. Reporting and blocking a suspended member stay possible, and
 * messages already exchanged stay in both mailboxes (as a deleted member's do).
 *
 * The role is written as a literal, not a parameter: it is the predicate of the search's partial
 * indexes (users_search_*), which a prepared statement's generic plan can match only against a
 * constant. As `role = $1` PostgreSQL switched to the generic plan after five calls and searched
 * by a sequential scan (twice the CPU per search of the same SQL with the values written in,
 * pnpm bench:http, decision 0037).
 */
export function reachableMember(table: typeof users = users): SQL {
  return and(isNull(table.deletedAt), isNull(table.suspendedAt), memberRole(table)) as SQL;
}

/** `role = 'user'` as a literal (see `reachableMember`). */
export const memberRole = (table: typeof users = users): SQL => sql`${table.role} = 'user'`;

/**
 * Reachable members (`reachableMember`) matching `where`, in the public shape's columns.
 * `includeSuspended`: live members whether suspended or not (the block list, reports, moderation).
 */
export function selectPublicProfiles(db: Db, where?: SQL, { includeSuspended = false } = {}) {
  return db
    .select(publicColumns)
    .from(users)
    .leftJoin(occupations, eq(users.occupationId, occupations.id))
    .leftJoin(annualIncomes, eq(users.annualIncomeId, annualIncomes.id))
    .where(and(includeSuspended ? and(isNull(users.deletedAt), memberRole()) : reachableMember(), where))
    .$dynamic();
}

/**
 * As `selectPublicProfiles` (reachable members only), each with whether `memberId` keeps them as a
 * favourite, and `counting` carried along as `matches` (lists/capped-count.ts), read in the same
 * statement: one round trip per page instead of three (decision 0037).
 */
export function selectPublicProfilesWithFavorite(
  db: Db,
  /** The member, or a prepared statement's placeholder. */
  memberId: string | Placeholder,
  where: SQL | undefined,
  counting: SQLWrapper,
) {
  return db
    .select({
      ...publicColumns,
      isFavorite: sql<boolean>`exists (select 1 from ${favorites} where ${favorites.userId} = ${memberId} and ${favorites.favoriteUserId} = ${users.id})`,
      matches: carriedCount(counting),
    })
    .from(users)
    .leftJoin(occupations, eq(users.occupationId, occupations.id))
    .leftJoin(annualIncomes, eq(users.annualIncomeId, annualIncomes.id))
    .where(and(reachableMember(), where))
    .$dynamic();
}
