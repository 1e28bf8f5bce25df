-- Issues 51 and 52: fixtures an admin adds (cups, national teams) say whether the venue is neutral and
-- where; a knockout fixture's score may include extra time, so it settles by its 90-minute score,
-- an admin's entry (DESIGN, "Fixtures").
ALTER TABLE "fixtures" ADD COLUMN "neutral" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fixtures" ADD COLUMN "city" text;--> statement-breakpoint
ALTER TABLE "fixtures" ADD COLUMN "knockout" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "fixtures" ADD COLUMN "regular_home_goals" smallint;--> statement-breakpoint
ALTER TABLE "fixtures" ADD COLUMN "regular_away_goals" smallint;--> statement-breakpoint
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_regular_score_pair" CHECK (("fixtures"."regular_home_goals" IS NULL) = ("fixtures"."regular_away_goals" IS NULL));