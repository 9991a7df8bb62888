ALTER TYPE "public"."ledger_kind" ADD VALUE 'purchase_bonus';--> statement-breakpoint
CREATE TABLE "purchase_bonus_grants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"purchase_transaction_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"rule_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"points" integer NOT NULL,
	"ledger_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_bonus_grants_kind" CHECK ("purchase_bonus_grants"."kind" in ('first_purchase', 'tier', 'campaign')),
	CONSTRAINT "purchase_bonus_grants_points" CHECK ("purchase_bonus_grants"."points" > 0)
);
--> statement-breakpoint
CREATE TABLE "purchase_bonus_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"payment_method" "payment_method",
	"min_amount" integer DEFAULT 0 NOT NULL,
	"rate_percent" integer,
	"fixed_points" integer,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"created_by_id" uuid,
	"ended_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchase_bonus_rules_kind" CHECK ("purchase_bonus_rules"."kind" in ('first_purchase', 'tier', 'campaign')),
	CONSTRAINT "purchase_bonus_rules_one_worth" CHECK (("purchase_bonus_rules"."rate_percent" is null) <> ("purchase_bonus_rules"."fixed_points" is null)),
	CONSTRAINT "purchase_bonus_rules_rate" CHECK ("purchase_bonus_rules"."rate_percent" is null or "purchase_bonus_rules"."rate_percent" between 1 and 100),
	CONSTRAINT "purchase_bonus_rules_fixed" CHECK ("purchase_bonus_rules"."fixed_points" is null or "purchase_bonus_rules"."fixed_points" between 1 and 1000000),
	CONSTRAINT "purchase_bonus_rules_period" CHECK ("purchase_bonus_rules"."ends_at" is null or "purchase_bonus_rules"."ends_at" > "purchase_bonus_rules"."starts_at"),
	CONSTRAINT "purchase_bonus_rules_campaign_ends" CHECK ("purchase_bonus_rules"."kind" <> 'campaign' or "purchase_bonus_rules"."ends_at" is not null),
	CONSTRAINT "purchase_bonus_rules_method" CHECK ("purchase_bonus_rules"."kind" = 'campaign' or "purchase_bonus_rules"."payment_method" is null),
	CONSTRAINT "purchase_bonus_rules_min_amount" CHECK ("purchase_bonus_rules"."min_amount" >= 0 and ("purchase_bonus_rules"."kind" = 'tier' or "purchase_bonus_rules"."min_amount" = 0) and ("purchase_bonus_rules"."kind" <> 'tier' or "purchase_bonus_rules"."min_amount" > 0))
);
--> statement-breakpoint
ALTER TABLE "purchase_transactions" ADD COLUMN "bonus_points" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase_bonus_grants" ADD CONSTRAINT "purchase_bonus_grants_purchase_transaction_id_purchase_transactions_id_fk" FOREIGN KEY ("purchase_transaction_id") REFERENCES "public"."purchase_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_bonus_grants" ADD CONSTRAINT "purchase_bonus_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_bonus_grants" ADD CONSTRAINT "purchase_bonus_grants_rule_id_purchase_bonus_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."purchase_bonus_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_bonus_grants" ADD CONSTRAINT "purchase_bonus_grants_ledger_id_point_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."point_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_bonus_rules" ADD CONSTRAINT "purchase_bonus_rules_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_bonus_rules" ADD CONSTRAINT "purchase_bonus_rules_ended_by_id_users_id_fk" FOREIGN KEY ("ended_by_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_bonus_grants_order_kind_idx" ON "purchase_bonus_grants" USING btree ("purchase_transaction_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_bonus_grants_first_once_idx" ON "purchase_bonus_grants" USING btree ("user_id") WHERE "purchase_bonus_grants"."kind" = 'first_purchase';--> statement-breakpoint
CREATE INDEX "purchase_bonus_grants_rule_idx" ON "purchase_bonus_grants" USING btree ("rule_id");--> statement-breakpoint
CREATE INDEX "purchase_bonus_rules_kind_start_idx" ON "purchase_bonus_rules" USING btree ("kind","starts_at");--> statement-breakpoint
ALTER TABLE "purchase_transactions" ADD CONSTRAINT "purchase_bonus_points_nonnegative" CHECK ("purchase_transactions"."bonus_points" >= 0);