import { index, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { createdAt, id } from "./columns";
import { users } from "./users";

/** What an administrator did, written in the same transaction as the change itself. */
export const adminAuditLog = pgTable(
  "admin_audit_log",
  {
    id: id(),
    adminId: uuid("admin_id")
      .notNull()
      .references(() => users.id),
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
    /** The request that wrote it (X-Request-Id, also in that request's log lines); null outside a request. */
    requestId: text("request_id"),
  },
  (t) => [
    index("admin_audit_created_idx").on(t.createdAt),
    index("admin_audit_target_idx").on(t.targetType, t.targetId),
    // The audit screen's filters, newest first (read backwards; see columns.ts).
    index("admin_audit_admin_created_idx").on(t.adminId, t.createdAt, t.id),
    index("admin_audit_action_created_idx").on(t.action, t.createdAt, t.id),
  ],
);
