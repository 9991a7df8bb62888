import { createHash } from "node:crypto";
import type { Db, users } from "@enmusubi/db";
import { MSG } from "@enmusubi/shared";
import { AppError } from "../errors";
import { getUserView, type UserView } from "./user-view";

/**
 * The version of a user as an administrator reads it (the REST `ETag`): a digest of every field
 * of the user's view, so any change of them, a charge or a credit of points included, gives
 * another version. No column to keep up to date: every writer of a balance changes it.
 */
export function userVersion(u: {
  id: string;
  userID: string;
  name: string | null;
  email: string;
  role: string;
  gender: string;
  points: number;
  sendPoints: number;
  photoLink: string | null;
  birthday: string | null;
  address: string | null;
  occupationId: string | null;
  annualIncomeId: string | null;
}): string {
  const fields = [
    u.id,
    u.userID,
    u.name,
    u.email,
    u.role,
    u.gender,
    u.points,
    u.sendPoints,
    u.photoLink,
    u.birthday,
    u.address,
    u.occupationId,
    u.annualIncomeId,
  ];
  return createHash("sha256").update(JSON.stringify(fields)).digest("base64url").slice(0, 27);
}

const versionOfRow = (row: typeof users.$inferSelect) => userVersion({ ...row, userID: row.userId });

export type VersionedUserView = UserView & { version: string };

export function withVersion(view: UserView): VersionedUserView {
  return {
    ...view,
    version: userVersion({
      ...view,
      occupationId: view.occupation?.id ?? null,
      annualIncomeId: view.annualIncome?.id ?? null,
    }),
  };
}

/** One user as administrators see it, with its version (the REST ETag). */
export async function getUser(db: Db, id: string): Promise<VersionedUserView> {
  const view = await getUserView(db, id);
  if (!view) throw new AppError("NOT_FOUND", MSG.notFound);
  return withVersion(view);
}

/**
 * What an edit states about the user it replaces: the balances it saw (`expectedPoints`,
 * `expectedSendPoints`), a version (`expectedVersion`, or `versions`: any of the REST `If-Match`
 * tags, with or without expected balances), or `"current"`: the legacy edit, which sets balances as they are now (the row lock makes
 * "now" the balance the ledger records as `from`).
 */
export type Stated =
  | {
      expectedVersion?: string | undefined;
      expectedPoints?: number | undefined;
      expectedSendPoints?: number | undefined;
    }
  | { versions: readonly string[]; expectedPoints?: number | undefined; expectedSendPoints?: number | undefined }
  | "current";

/**
 * The balances an edit states it replaces, checked under the row lock: a version (REST If-Match)
 * must be the user's current one (PRECONDITION_FAILED), an expected balance the current balance
 * (CONFLICT). Both refusals carry the current figures; nothing of the edit is written.
 */
export function checkStated(before: typeof users.$inferSelect, stated: Stated) {
  if (stated === "current") return;
  const current = { points: before.points, sendPoints: before.sendPoints };
  const versions =
    "versions" in stated ? stated.versions : stated.expectedVersion === undefined ? [] : [stated.expectedVersion];
  if (versions.length > 0) {
    const version = versionOfRow(before);
    if (!versions.includes(version)) {
      throw new AppError("PRECONDITION_FAILED", MSG.userChangedSince, { details: { ...current, version } });
    }
  }
  if (
    (stated.expectedPoints !== undefined && stated.expectedPoints !== before.points) ||
    (stated.expectedSendPoints !== undefined && stated.expectedSendPoints !== before.sendPoints)
  ) {
    throw new AppError("CONFLICT", MSG.balanceChanged, { details: current });
  }
}
