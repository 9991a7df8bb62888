ALTER TYPE "public"."ledger_kind" ADD VALUE 'expire';--> statement-breakpoint
CREATE TABLE "payment_notification_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "point_lot_usages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"lot_id" uuid NOT NULL,
	"ledger_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "point_lots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"source" "ledger_kind" NOT NULL,
	"ledger_id" uuid,
	"paid" boolean DEFAULT false NOT NULL,
	"amount" integer NOT NULL,
	"remaining" integer NOT NULL,
	"yen_amount" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "point_lots_amount_positive" CHECK ("point_lots"."amount" > 0),
	CONSTRAINT "point_lots_remaining_range" CHECK ("point_lots"."remaining" >= 0 and "point_lots"."remaining" <= "point_lots"."amount"),
	CONSTRAINT "point_lots_yen_nonnegative" CHECK ("point_lots"."yen_amount" >= 0)
);
--> statement-breakpoint
ALTER TABLE "purchase_transactions" ADD COLUMN "confirmed_via" text;--> statement-breakpoint
ALTER TABLE "purchase_transactions" ADD COLUMN "smart_pit_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prepaid_actions" ADD COLUMN "charge_ledger_id" uuid;--> statement-breakpoint
ALTER TABLE "point_lot_usages" ADD CONSTRAINT "point_lot_usages_lot_id_point_lots_id_fk" FOREIGN KEY ("lot_id") REFERENCES "public"."point_lots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_lot_usages" ADD CONSTRAINT "point_lot_usages_ledger_id_point_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."point_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_lots" ADD CONSTRAINT "point_lots_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "point_lots" ADD CONSTRAINT "point_lots_ledger_id_point_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."point_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_notification_nonces_received_idx" ON "payment_notification_nonces" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "point_lot_usages_lot_idx" ON "point_lot_usages" USING btree ("lot_id","created_at");--> statement-breakpoint
CREATE INDEX "point_lot_usages_ledger_idx" ON "point_lot_usages" USING btree ("ledger_id");--> statement-breakpoint
CREATE INDEX "point_lots_user_expiry_idx" ON "point_lots" USING btree ("user_id","expires_at") WHERE "point_lots"."remaining" > 0;--> statement-breakpoint
CREATE INDEX "point_lots_expiry_idx" ON "point_lots" USING btree ("expires_at") WHERE "point_lots"."remaining" > 0;--> statement-breakpoint
ALTER TABLE "prepaid_actions" ADD CONSTRAINT "prepaid_actions_charge_ledger_id_point_ledger_id_fk" FOREIGN KEY ("charge_ledger_id") REFERENCES "public"."point_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_transactions" ADD CONSTRAINT "purchase_confirmed_via" CHECK ("purchase_transactions"."confirmed_via" is null or "purchase_transactions"."confirmed_via" in ('admin', 'smartpit'));