CREATE TABLE "purchase_daily_totals" (
	"day" date NOT NULL,
	"status" "transaction_status" NOT NULL,
	"payment_method" "payment_method" NOT NULL,
	"count" bigint NOT NULL,
	"amount" bigint NOT NULL,
	"points" bigint NOT NULL,
	CONSTRAINT "purchase_daily_totals_day_status_payment_method_pk" PRIMARY KEY("day","status","payment_method")
);
--> statement-breakpoint
CREATE INDEX "purchase_created_idx" ON "purchase_transactions" USING btree ("created_at","id");