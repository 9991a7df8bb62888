import { MSG, type Role, type VerificationStatus } from "@enmusubi/shared";
import { AppError, verificationRequired } from "../errors";

/**
 * An account's standing, as this request's session query read it (context.ts) or as the
 * scheduled dispatcher read an entry's owner: read anew each time, so an approval, a rejection or
 * a suspension applies at once.
 */
export interface Standing {
  role: Role;
  verificationStatus: VerificationStatus;
  /** A session is never suspended (its token is refused); the dispatcher's owner read says. */
  suspended?: boolean;
}

/** What an act asks of whoever does it: the layers of the procedure builders (trpc.ts). */
export interface Requirement {
  role?: Role;
  /** One of the four acts of 出会い系サイト規制法 art. 11 (decision 0006). */
  verified?: boolean;
}

/** Whether a member in this state may do the four acts of art. 11 (decision 0006). */
export const isVerified = (status: VerificationStatus): boolean => status === "verified";

/**
 * Why `actor` may not do an act that asks `need`, or null when they may: nobody signed in
 * (UNAUTHORIZED), a suspended account, the wrong role, a member not verified (FORBIDDEN, the
 * last with the message that points to the verification page). The one rule of standing: the
 * procedure builders (trpc.ts) and the scheduled dispatcher (scheduled/send.ts) both ask it.
 * Blocks are between two members, not a standing: the send rules check them
 * (`checkMemberSends`), for a request and a scheduled entry alike.
 */
export function standingRefusal(actor: Standing | null, need: Requirement = {}): AppError | null {
  if (!actor) return new AppError("UNAUTHORIZED", MSG.unauthorized);
  if (actor.suspended) return new AppError("FORBIDDEN", MSG.accountSuspended);
  if (need.role && actor.role !== need.role) return new AppError("FORBIDDEN", MSG.forbidden);
  if (need.verified && !isVerified(actor.verificationStatus)) return verificationRequired();
  return null;
}
