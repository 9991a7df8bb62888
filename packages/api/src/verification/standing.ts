import { type Db, users } from "@enmusubi/db";
import type { VerificationStatus } from "@enmusubi/shared";
import { and, eq, isNull } from "drizzle-orm";

/**
 * Whether a member may do the four acts of 出会い系サイト規制法 art. 11 now (decision 0006). The
 * state is read on every request: `known` is what the request's session query read (context.ts),
 * so no statement of its own; a session made by hand (tests) has none and the row is read here.
 * One rule for `verifiedProcedure` and the message gate.
 */
export async function isVerified(db: Db, userId: string, known?: VerificationStatus): Promise<boolean> {
  if (known !== undefined) return known === "verified";
  const [row] = await db
    .select({ status: users.verificationStatus })
    .from(users)
    // A suspended account has no standing either (its token is refused; a session made by hand is not).
    .where(and(eq(users.id, userId), isNull(users.deletedAt), isNull(users.suspendedAt)));
  return row?.status === "verified";
}
