import { adminAuditLog, type Db } from "@enmusubi/db";

/** Records an administrator's action; call it in the same transaction as the change. */
export async function writeAudit(
  tx: Db,
  entry: { adminId: string; action: string; targetType: string; targetId?: string; details?: Record<string, unknown> },
): Promise<void> {
  await tx.insert(adminAuditLog).values({ ...entry, details: entry.details ?? {} });
}
