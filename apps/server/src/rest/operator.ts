import { MSG } from "@enmusubi/shared";
import { TRPCError } from "@trpc/server";

/**
 * A legacy route that members and administrators share (spec §7: the legacy client calls the same
 * path with either token; docs/decisions/0017-legacy-calls-for-administrators.md): the member's
 * procedure first, and when it refuses the caller for their role (an administrator: the member
 * builders refuse before reading the input or opening a transaction, so nothing has happened),
 * the administrators' procedure for the same act. Each procedure keeps its own role check, so a
 * member never reaches the administrators' one: it refuses them in turn with the same 403.
 */
export async function asMemberOrOperator<T>(asMember: () => Promise<T>, asOperator: () => Promise<T>): Promise<T> {
  try {
    return await asMember();
  } catch (error) {
    if (error instanceof TRPCError && error.code === "FORBIDDEN" && error.message === MSG.forbidden) {
      return asOperator();
    }
    throw error;
  }
}
