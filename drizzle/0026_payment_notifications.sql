CREATE TABLE "payment_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider" text NOT NULL,
	"transaction_ref" text,
	"payment_code" text,
	"amount" bigint,
	"purchase_transaction_id" uuid,
	"outcome" text NOT NULL,
	"reason" text,
	"summary" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolution" text,
	"resolved_at" timestamp with time zone,
	"resolved_by_id" uuid,
	"resolution_note" text,
	CONSTRAINT "payment_notifications_outcome" CHECK ("payment_notifications"."outcome" in ('credited', 'reinstated', 'duplicate', 'unsettled', 'refused_signature', 'refused_invalid', 'refused_unknown', 'refused_amount')),
	CONSTRAINT "payment_notifications_reason" CHECK (("payment_notifications"."outcome" = 'unsettled') = ("payment_notifications"."reason" is not null) and ("payment_notifications"."reason" is null or "payment_notifications"."reason" in ('account_closed', 'overflow'))),
	CONSTRAINT "payment_notifications_resolution" CHECK (("payment_notifications"."resolution" is null or ("payment_notifications"."outcome" = 'unsettled' and "payment_notifications"."resolution" in ('settled', 'refunded') and "payment_notifications"."resolved_at" is not null and "payment_notifications"."resolved_by_id" is not null)))
);
--> statement-breakpoint
ALTER TABLE "purchase_transactions" ADD COLUMN "reinstated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_notifications" ADD CONSTRAINT "payment_notifications_purchase_transaction_id_purchase_transactions_id_fk" FOREIGN KEY ("purchase_transaction_id") REFERENCES "public"."purchase_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_notifications" ADD CONSTRAINT "payment_notifications_resolved_by_id_users_id_fk" FOREIGN KEY ("resolved_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_notifications_received_idx" ON "payment_notifications" USING btree ("received_at","id");--> statement-breakpoint
CREATE INDEX "payment_notifications_outcome_received_idx" ON "payment_notifications" USING btree ("outcome","received_at","id");--> statement-breakpoint
CREATE INDEX "payment_notifications_transaction_idx" ON "payment_notifications" USING btree ("purchase_transaction_id");