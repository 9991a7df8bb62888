import { type Db, users } from "@enmusubi/db";
import { type ConsentInput, MSG, TERMS_VERSION } from "@enmusubi/shared";
import { and, eq, isNull, sql } from "drizzle-orm";
import { AppError } from "../errors";

/*
 * Consent to the terms and the privacy policy, with the declaration of being 18 or older (decision 0034,
 * decision 0034). The sign-up screen asks both; an account without a consent to TERMS_VERSION (made
 * by the legacy REST sign-up, by an administrator, or that accepted an older version) is asked once
 * by the member shell before anything else, and records it here.
 */

export interface ConsentState {
  /** The version the member accepted, or null. */
  termsVersion: string | null;
  acceptedAt: Date | null;
  /** The version in force (TERMS_VERSION). */
  currentVersion: string;
  /** True when the member must be asked (no consent, or to an older version). */
  required: boolean;
}

export async function consentState(db: Db, userId: string): Promise<ConsentState> {
  const [row] = await db
    .select({ termsVersion: users.termsVersion, acceptedAt: users.termsAcceptedAt, role: users.role })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  if (!row) throw new AppError("UNAUTHORIZED", MSG.unauthorized);
  return {
    termsVersion: row.termsVersion,
    acceptedAt: row.acceptedAt,
    currentVersion: TERMS_VERSION,
    // Administrators run the service; they are never asked.
    required: row.role === "user" && row.termsVersion !== TERMS_VERSION,
  };
}

/** Records the member's consent to the current version (the input schema refuses an older one). */
export async function acceptTerms(db: Db, userId: string, input: ConsentInput): Promise<ConsentState> {
  await db
    .update(users)
    .set({ termsVersion: input.termsVersion, termsAcceptedAt: sql`now()` })
    .where(and(eq(users.id, userId), isNull(users.deletedAt)));
  return consentState(db, userId);
}
