CREATE TABLE "board_entries" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"open_until" timestamp with time zone NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "board_post_grams" (
	"gram" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"post_id" uuid NOT NULL,
	CONSTRAINT "board_post_grams_gram_created_at_post_id_pk" PRIMARY KEY("gram","created_at","post_id")
);
--> statement-breakpoint
ALTER TABLE "board_posts" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "board_entries" ADD CONSTRAINT "board_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "board_posts_live_created_idx" ON "board_posts" USING btree ("created_at","id") WHERE "board_posts"."deleted_at" is null;