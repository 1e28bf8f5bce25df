CREATE TABLE "pronostic_counters" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"live" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "pronostics_user_list_idx";--> statement-breakpoint
ALTER TABLE "pronostic_counters" ADD CONSTRAINT "pronostic_counters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pronostics_user_status_list_idx" ON "pronostics" USING btree ("user_id","status","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "pronostics"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "pronostics_user_list_idx" ON "pronostics" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "pronostics"."deleted_at" IS NULL;