-- The inquiry desk's unread filter and its capped unread count (issue 14): live unread inquiries
-- newest first, read in order instead of every inquiry filtered.
CREATE INDEX IF NOT EXISTS "inquiries_unread_created_idx" ON "inquiries" USING btree ("created_at","id") WHERE "deleted_at" is null and not "is_read";
