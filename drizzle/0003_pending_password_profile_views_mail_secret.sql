CREATE TABLE "footprints" (
	"viewed_id" uuid NOT NULL,
	"viewer_id" uuid NOT NULL,
	"day" date NOT NULL,
	"last_viewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "footprints_viewed_id_viewer_id_day_pk" PRIMARY KEY("viewed_id","viewer_id","day")
);
--> statement-breakpoint
CREATE TABLE "profile_views" (
	"viewer_id" uuid NOT NULL,
	"viewed_id" uuid NOT NULL,
	"charged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profile_views_viewer_id_viewed_id_pk" PRIMARY KEY("viewer_id","viewed_id")
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "secret" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_password_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "pending_password_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "footprints" ADD CONSTRAINT "footprints_viewed_id_users_id_fk" FOREIGN KEY ("viewed_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "footprints" ADD CONSTRAINT "footprints_viewer_id_users_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_views" ADD CONSTRAINT "profile_views_viewer_id_users_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_views" ADD CONSTRAINT "profile_views_viewed_id_users_id_fk" FOREIGN KEY ("viewed_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "footprints_viewed_recent_idx" ON "footprints" USING btree ("viewed_id","last_viewed_at" DESC NULLS LAST);