CREATE TYPE "public"."id_document_kind" AS ENUM('drivers_license', 'my_number_card', 'passport', 'health_insurance', 'other');--> statement-breakpoint
ALTER TABLE "id_verifications" ADD COLUMN "document_kind" "id_document_kind";--> statement-breakpoint
ALTER TABLE "id_verifications" ADD COLUMN "birthday_checked" date;