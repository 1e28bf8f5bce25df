-- The pronostic types' names and descriptions in English beside the French (issue 50): the English
-- app showed "Résultat du match (1X2)". Null for a type an admin creates without them (the French is
-- shown then); the six seeded types get theirs here, found by slug (ids are the seed's but an admin
-- may have renamed the French since: only the English is written).
ALTER TABLE "pronostic_types" ADD COLUMN "name_en" text;--> statement-breakpoint
ALTER TABLE "pronostic_types" ADD COLUMN "description_en" text;--> statement-breakpoint
UPDATE "pronostic_types" AS t SET "name_en" = e."name_en", "description_en" = e."description_en"
FROM (VALUES
  ('1x2', 'Match result (1X2)', 'Home win, draw or away win.'),
  ('double-chance', 'Double chance', 'Two outcomes out of three covered: 1X, 12 or X2.'),
  ('btts', 'Both teams to score', 'Will both teams score at least one goal?'),
  ('over-under-2-5', 'Over/Under 2.5 goals', 'Three goals or more in the match, or two at most.'),
  ('exact-score', 'Exact score', 'The likeliest scores of the match.'),
  ('full-analysis', 'Full analysis', 'Every market, the expected goals and a detailed analysis.')
) AS e("slug", "name_en", "description_en")
WHERE t."slug" = e."slug" AND t."name_en" IS NULL;
