import { auditListInput } from "@enmusubi/shared";
import { adminProcedure, router } from "../trpc";
import { listAudit, listAuditActions } from "./audit-log";

/**
 * The audit log screen (administrators only). Read-only by design: this router has queries and
 * nothing else, so no procedure can change or delete an audit row; rows are written only by
 * `writeAudit`, inside the transaction of the change they record (test/audit.test.ts asserts the
 * router holds no mutation).
 */
export const adminAuditRouter = router({
  list: adminProcedure.input(auditListInput).query(({ ctx, input }) => listAudit(ctx.db, input)),
  actions: adminProcedure.query(({ ctx }) => listAuditActions(ctx.db)),
});
