ALTER TYPE "public"."ledger_kind" ADD VALUE 'signup_bonus';--> statement-breakpoint
ALTER TYPE "public"."ledger_kind" ADD VALUE 'login_bonus';--> statement-breakpoint
CREATE TABLE "bonus_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"login_bonus_points" integer DEFAULT 0 NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bonus_settings_one_row" CHECK ("bonus_settings"."id" = 1),
	CONSTRAINT "bonus_settings_login_bonus_range" CHECK ("bonus_settings"."login_bonus_points" >= 0 and "bonus_settings"."login_bonus_points" <= 100)
);
--> statement-breakpoint
CREATE TABLE "login_bonuses" (
	"user_id" uuid NOT NULL,
	"day" date NOT NULL,
	"points" integer NOT NULL,
	"ledger_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "login_bonuses_user_id_day_pk" PRIMARY KEY("user_id","day"),
	CONSTRAINT "login_bonuses_points_positive" CHECK ("login_bonuses"."points" > 0)
);
--> statement-breakpoint
CREATE TABLE "phone_verification_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"phone_number" text NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"consumed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "phone_codes_attempts_range" CHECK ("phone_verification_codes"."attempts" >= 0 and "phone_verification_codes"."attempts" <= 5)
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_number" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "signup_bonus_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "signup_bonus_granted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "login_bonus_day" date;--> statement-breakpoint
ALTER TABLE "bonus_settings" ADD CONSTRAINT "bonus_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_bonuses" ADD CONSTRAINT "login_bonuses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "login_bonuses" ADD CONSTRAINT "login_bonuses_ledger_id_point_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."point_ledger"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "phone_verification_codes" ADD CONSTRAINT "phone_verification_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "phone_codes_user_created_idx" ON "phone_verification_codes" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_phone_number_key" ON "users" USING btree ("phone_number") WHERE "users"."phone_number" is not null;