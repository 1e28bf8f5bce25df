-- Issue 51: a cup's or tournament's fixture names its stage (the heading as written: `Group A`,
-- `Round of 16`, `Final`) and, for a two-legged tie, its leg: the second leg's analysis reads the
-- first leg's score (decision 0161).
ALTER TABLE "fixtures" ADD COLUMN "stage" text;--> statement-breakpoint
ALTER TABLE "fixtures" ADD COLUMN "leg" smallint;--> statement-breakpoint
ALTER TABLE "fixtures" ADD CONSTRAINT "fixtures_leg_allowed" CHECK ("fixtures"."leg" IS NULL OR "fixtures"."leg" IN (1, 2));