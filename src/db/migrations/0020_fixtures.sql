-- The fixtures (upcoming matches), their pre-match odds history, their totals per status (the
-- list's meta), and the pronostic columns that tie a pronostic to a fixture and to the odds its
-- analysis used. (drizzle-kit also wanted to rename payouts_pending_check_idx: 0018 already created
-- payouts_check_idx by hand, the snapshot had the old name; the snapshot is now right and no
-- statement is needed.)
CREATE TABLE "fixture_counts" (
	"status" text PRIMARY KEY NOT NULL,
	"total" integer NOT NULL,
	CONSTRAINT "fixture_counts_status_allowed" CHECK ("fixture_counts"."status" IN ('scheduled', 'played', 'postponed'))
);
--> statement-breakpoint
CREATE TABLE "fixture_odds" (
	"id" serial PRIMARY KEY NOT NULL,
	"fixture_id" integer NOT NULL,
	"collected_at" timestamp(6) with time zone NOT NULL,
	"pinnacle_home" double precision,
	"pinnacle_draw" double precision,
	"pinnacle_away" double precision,
	"average_home" double precision,
	"average_draw" double precision,
	"average_away" double precision,
	"ou_pinnacle_over" double precision,
	"ou_pinnacle_under" double precision,
	"ou_average_over" double precision,
	"ou_average_under" double precision
);
--> statement-breakpoint
CREATE TABLE "fixtures" (
	"id" serial PRIMARY KEY NOT NULL,
	"league_id" integer NOT NULL,
	"season" text NOT NULL,
	"home_team_id" integer NOT NULL,
	"away_team_id" integer NOT NULL,
	"home_name" text NOT NULL,
	"away_name" text NOT NULL,
	"kickoff_at" timestamp(6) with time zone NOT NULL,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"home_goals" smallint,
	"away_goals" smallint,
	"match_id" integer,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fixtures_status_allowed" CHECK ("fixtures"."status" IN ('scheduled', 'played', 'postponed')),
	CONSTRAINT "fixtures_score_when_played" CHECK (("fixtures"."status" = 'played') = ("fixtures"."home_goals" IS NOT NULL AND "fixtures"."away_goals" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "pronostics" ADD COLUMN "fixture_id" integer;--> statement-breakpoint
ALTER TABLE "pronostics" ADD COLUMN "fixture_odds_id" integer;--> statement-breakpoint
ALTER TABLE "fixture_odds" ADD CONSTRAINT "fixture_odds_fixture_id_fixtures_id_fk" FOREIGN KEY ("fixture_id") REFERENCES "public"."fixtures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_league_id_football_leagues_id_fk" FOREIGN KEY ("league_id") REFERENCES "public"."football_leagues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_home_team_id_football_teams_id_fk" FOREIGN KEY ("home_team_id") REFERENCES "public"."football_teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_away_team_id_football_teams_id_fk" FOREIGN KEY ("away_team_id") REFERENCES "public"."football_teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_match_id_football_matches_id_fk" FOREIGN KEY ("match_id") REFERENCES "public"."football_matches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "fixture_odds_fixture_collected_idx" ON "fixture_odds" USING btree ("fixture_id","collected_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "fixtures_natural_key" ON "fixtures" USING btree ("league_id","season","home_team_id","away_team_id");--> statement-breakpoint
CREATE INDEX "fixtures_status_kickoff_idx" ON "fixtures" USING btree ("status","kickoff_at","id");--> statement-breakpoint
CREATE INDEX "fixtures_league_kickoff_idx" ON "fixtures" USING btree ("league_id","kickoff_at","id");--> statement-breakpoint
CREATE INDEX "fixtures_home_kickoff_idx" ON "fixtures" USING btree ("home_team_id","kickoff_at");--> statement-breakpoint
CREATE INDEX "fixtures_away_kickoff_idx" ON "fixtures" USING btree ("away_team_id","kickoff_at");--> statement-breakpoint
ALTER TABLE "pronostics" ADD CONSTRAINT "pronostics_fixture_id_fixtures_id_fk" FOREIGN KEY ("fixture_id") REFERENCES "public"."fixtures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pronostics" ADD CONSTRAINT "pronostics_fixture_odds_id_fixture_odds_id_fk" FOREIGN KEY ("fixture_odds_id") REFERENCES "public"."fixture_odds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pronostics_fixture_idx" ON "pronostics" USING btree ("fixture_id") WHERE "pronostics"."fixture_id" IS NOT NULL;