CREATE TABLE "track_record_matches" (
	"match_id" integer PRIMARY KEY NOT NULL,
	"settled" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "track_record_matches" ADD CONSTRAINT "track_record_matches_match_id_football_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."football_matches"("id") ON DELETE no action ON UPDATE no action;