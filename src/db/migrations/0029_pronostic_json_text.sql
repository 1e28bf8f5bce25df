-- teams_details and result as json (the text as written) instead of jsonb: a list page reads ten of
-- them, and printing jsonb's binary form back to text was most of the statement's cost. Rewrites
-- the table once (an exclusive lock for its length: minutes on millions of rows).
ALTER TABLE "pronostics" ALTER COLUMN "teams_details" SET DATA TYPE json USING "teams_details"::json;--> statement-breakpoint
ALTER TABLE "pronostics" ALTER COLUMN "result" SET DATA TYPE json USING "result"::json;
