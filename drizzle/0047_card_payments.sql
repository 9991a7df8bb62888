ALTER TYPE "public"."payment_method" ADD VALUE 'card';--> statement-breakpoint
ALTER TYPE "public"."transaction_status" ADD VALUE 'refunded';--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'purchase_reversal';--> statement-breakpoint
ALTER TABLE "payment_notifications" DROP CONSTRAINT "payment_notifications_outcome";--> statement-breakpoint
ALTER TABLE "payment_notifications" DROP CONSTRAINT "payment_notifications_reason";--> statement-breakpoint
ALTER TABLE "purchase_transactions" DROP CONSTRAINT "purchase_confirmed_via";--> statement-breakpoint
ALTER TABLE "payment_settings" ADD COLUMN "card_merchant_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_settings" ADD COLUMN "card_secret" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_settings" ADD COLUMN "card_payment_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_settings" ADD COLUMN "card_is_active" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_settings" ADD COLUMN "card_age_verification" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase_transactions" ADD COLUMN "card_processor_ref" text;--> statement-breakpoint
ALTER TABLE "purchase_transactions" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "id_verifications" ADD COLUMN "method" text DEFAULT 'id_document' NOT NULL;--> statement-breakpoint
ALTER TABLE "id_verifications" ADD COLUMN "purchase_transaction_id" uuid;--> statement-breakpoint
ALTER TABLE "id_verifications" ADD CONSTRAINT "id_verifications_purchase_transaction_id_purchase_transactions_id_fk" FOREIGN KEY ("purchase_transaction_id") REFERENCES "public"."purchase_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_notifications" ADD CONSTRAINT "payment_notifications_outcome" CHECK ("payment_notifications"."outcome" in ('credited', 'reinstated', 'duplicate', 'unsettled', 'refused_signature', 'refused_invalid', 'refused_unknown', 'refused_amount', 'declined', 'reversed'));--> statement-breakpoint
ALTER TABLE "payment_notifications" ADD CONSTRAINT "payment_notifications_reason" CHECK (("payment_notifications"."outcome" = 'unsettled') = ("payment_notifications"."reason" is not null) and ("payment_notifications"."reason" is null or "payment_notifications"."reason" in ('account_closed', 'overflow', 'points_spent')));--> statement-breakpoint
ALTER TABLE "purchase_transactions" ADD CONSTRAINT "purchase_confirmed_via" CHECK ("purchase_transactions"."confirmed_via" is null or "purchase_transactions"."confirmed_via" in ('admin', 'smartpit', 'card'));--> statement-breakpoint
ALTER TABLE "id_verifications" ADD CONSTRAINT "id_verifications_method" CHECK ("id_verifications"."method" in ('id_document', 'card_payment'));