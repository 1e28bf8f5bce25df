ALTER TABLE "pronostics" ADD COLUMN "outcome" text;--> statement-breakpoint
ALTER TABLE "pronostics" ADD COLUMN "settled_at" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "pronostics" ADD COLUMN "settled_match_id" integer;--> statement-breakpoint
ALTER TABLE "pronostics" ADD CONSTRAINT "pronostics_settled_match_id_football_matches_id_fk" FOREIGN KEY ("settled_match_id") REFERENCES "public"."football_matches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pronostics_unsettled_idx" ON "pronostics" USING btree ("id") WHERE "pronostics"."status" = 'success' AND "pronostics"."outcome" IS NULL;--> statement-breakpoint
CREATE INDEX "pronostics_user_outcome_list_idx" ON "pronostics" USING btree ("user_id","outcome","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "pronostics"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "pronostics_user_pending_list_idx" ON "pronostics" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "pronostics"."deleted_at" IS NULL AND "pronostics"."outcome" IS NULL AND "pronostics"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "pronostics_settled_idx" ON "pronostics" USING btree ("type_id","settled_match_id") WHERE "pronostics"."outcome" IS NOT NULL;