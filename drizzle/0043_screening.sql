CREATE TYPE "public"."screening_action" AS ENUM('mask', 'hold', 'refuse');--> statement-breakpoint
CREATE TYPE "public"."screening_category" AS ENUM('contact', 'solicitation', 'minors', 'external', 'other');--> statement-breakpoint
CREATE TYPE "public"."screening_hold_kind" AS ENUM('message', 'board_post');--> statement-breakpoint
CREATE TYPE "public"."screening_hold_status" AS ENUM('held', 'released', 'rejected');--> statement-breakpoint
CREATE TYPE "public"."screening_rule_kind" AS ENUM('word', 'pattern');--> statement-breakpoint
CREATE TABLE "screening_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"action" "screening_action" NOT NULL,
	"category" "screening_category" NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screening_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "screening_hold_kind" NOT NULL,
	"author_id" uuid NOT NULL,
	"recipient_id" uuid,
	"reply_to_id" uuid,
	"title" text,
	"body" text NOT NULL,
	"matches" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"charged_points" integer DEFAULT 0 NOT NULL,
	"charge_reference" uuid,
	"status" "screening_hold_status" DEFAULT 'held' NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"reason" text,
	"released_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screening_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" "screening_rule_kind" NOT NULL,
	"pattern" text NOT NULL,
	"category" "screening_category" NOT NULL,
	"action" "screening_action" NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "screening_events" ADD CONSTRAINT "screening_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_holds" ADD CONSTRAINT "screening_holds_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_holds" ADD CONSTRAINT "screening_holds_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_holds" ADD CONSTRAINT "screening_holds_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_rules" ADD CONSTRAINT "screening_rules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "screening_events_user_created_idx" ON "screening_events" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "screening_holds_status_created_idx" ON "screening_holds" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "screening_holds_decided_idx" ON "screening_holds" USING btree ("decided_at","id") WHERE "screening_holds"."status" <> 'held';--> statement-breakpoint
CREATE INDEX "screening_holds_author_idx" ON "screening_holds" USING btree ("author_id","kind","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "screening_rules_pattern_key" ON "screening_rules" USING btree ("kind","pattern");