CREATE TABLE "profile_photo_views" (
	"viewer_id" uuid NOT NULL,
	"viewed_id" uuid NOT NULL,
	"charged_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "profile_photo_views_viewer_id_viewed_id_pk" PRIMARY KEY("viewer_id","viewed_id")
);
--> statement-breakpoint
ALTER TABLE "profile_photo_views" ADD CONSTRAINT "profile_photo_views_viewer_id_users_id_fk" FOREIGN KEY ("viewer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "profile_photo_views" ADD CONSTRAINT "profile_photo_views_viewed_id_users_id_fk" FOREIGN KEY ("viewed_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;