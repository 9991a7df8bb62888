import { timestamp, uuid } from "drizzle-orm/pg-core";

export const id = () => uuid("id").primaryKey().defaultRandom();
export const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/*
 * Indexes for "newest first" lists are declared ascending (`.on(t.createdAt, t.id)`): PostgreSQL
 * reads them backwards for ORDER BY created_at DESC, id DESC. A `.desc()` column is DESC NULLS LAST,
 * which does not match that order (DESC means NULLS FIRST), so such an index would never be used.
 */
