-- The Asian handicap of a played match (issue 44), pre-match and closing like the 1X2 and over/under
-- beside them: the home side's line and the prices on both sides, Pinnacle's and the average's.
-- Null where the file has none, and on rows imported before this until their file is imported again.
ALTER TABLE "football_matches" ADD COLUMN "pre_ah_line" double precision;--> statement-breakpoint
ALTER TABLE "football_matches" ADD COLUMN "pre_pinnacle_ah_home" double precision;--> statement-breakpoint
ALTER TABLE "football_matches" ADD COLUMN "pre_pinnacle_ah_away" double precision;--> statement-breakpoint
ALTER TABLE "football_matches" ADD COLUMN "pre_average_ah_home" double precision;--> statement-breakpoint
ALTER TABLE "football_matches" ADD COLUMN "pre_average_ah_away" double precision;--> statement-breakpoint
ALTER TABLE "football_matches" ADD COLUMN "close_ah_line" double precision;--> statement-breakpoint
ALTER TABLE "football_matches" ADD COLUMN "close_pinnacle_ah_home" double precision;--> statement-breakpoint
ALTER TABLE "football_matches" ADD COLUMN "close_pinnacle_ah_away" double precision;--> statement-breakpoint
ALTER TABLE "football_matches" ADD COLUMN "close_average_ah_home" double precision;--> statement-breakpoint
ALTER TABLE "football_matches" ADD COLUMN "close_average_ah_away" double precision;