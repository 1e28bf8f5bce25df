CREATE TABLE "football_league_aliases" (
	"id" serial PRIMARY KEY NOT NULL,
	"league_id" integer NOT NULL,
	"alias" text NOT NULL,
	"alias_normalized" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "football_leagues" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "football_leagues_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "football_matches" (
	"id" serial PRIMARY KEY NOT NULL,
	"league_id" integer NOT NULL,
	"season" text NOT NULL,
	"played_on" date NOT NULL,
	"kickoff" text,
	"home_team_id" integer NOT NULL,
	"away_team_id" integer NOT NULL,
	"home_goals" smallint NOT NULL,
	"away_goals" smallint NOT NULL,
	"half_time_home_goals" smallint,
	"half_time_away_goals" smallint,
	"home_shots" smallint,
	"away_shots" smallint,
	"home_shots_on_target" smallint,
	"away_shots_on_target" smallint,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "football_team_aliases" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"alias" text NOT NULL,
	"alias_normalized" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "football_teams" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"name_normalized" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "football_teams_name_normalized_unique" UNIQUE("name_normalized")
);
--> statement-breakpoint
ALTER TABLE "football_league_aliases" ADD CONSTRAINT "football_league_aliases_league_id_football_leagues_id_fk" FOREIGN KEY ("league_id") REFERENCES "public"."football_leagues"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "football_matches" ADD CONSTRAINT "football_matches_league_id_football_leagues_id_fk" FOREIGN KEY ("league_id") REFERENCES "public"."football_leagues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "football_matches" ADD CONSTRAINT "football_matches_home_team_id_football_teams_id_fk" FOREIGN KEY ("home_team_id") REFERENCES "public"."football_teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "football_matches" ADD CONSTRAINT "football_matches_away_team_id_football_teams_id_fk" FOREIGN KEY ("away_team_id") REFERENCES "public"."football_teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "football_team_aliases" ADD CONSTRAINT "football_team_aliases_team_id_football_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."football_teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "football_league_aliases_normalized_unique" ON "football_league_aliases" USING btree ("alias_normalized");--> statement-breakpoint
CREATE UNIQUE INDEX "football_matches_fixture_unique" ON "football_matches" USING btree ("home_team_id","away_team_id","played_on");--> statement-breakpoint
CREATE INDEX "football_matches_league_date_idx" ON "football_matches" USING btree ("league_id","played_on");--> statement-breakpoint
CREATE UNIQUE INDEX "football_team_aliases_normalized_unique" ON "football_team_aliases" USING btree ("alias_normalized");