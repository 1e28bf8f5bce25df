-- Custom SQL (the schema cannot express a data backfill): the rows settled before 0015 get the
-- figure columns the settlement now writes (match day, league, stated confidence, and for a scored
-- 1X2 forecast the actual result, Brier and RPS), then the two rollups are built from them once.
-- From now on the settlement keeps both in the statement that settles each batch. Same formulas as
-- the former aggregation (docs/track-record.md). Runs before the service listens (migrations run
-- at start), so no settlement pass writes meanwhile.
UPDATE "pronostics" AS p
SET "settled_day" = x.day,
    "settled_league_id" = x.league_id,
    "settled_confidence" = x.confidence,
    "settled_actual" = CASE WHEN x.scored THEN x.actual END,
    "settled_brier" = CASE WHEN x.scored THEN
      (x.ph - (x.actual = 'home')::int) ^ 2 + (x.pd - (x.actual = 'draw')::int) ^ 2 + (x.pa - (x.actual = 'away')::int) ^ 2 END,
    "settled_rps" = CASE WHEN x.scored THEN
      ((x.ph - (x.actual = 'home')::int) ^ 2 + (x.ph + x.pd - (x.actual = 'home')::int - (x.actual = 'draw')::int) ^ 2) / 2 END
FROM (
  SELECT q.id, coalesce(m.played_on, (q.settled_at AT TIME ZONE 'UTC')::date) AS day, m.league_id,
         CASE WHEN jsonb_typeof(q.result->'confidence') = 'number' THEN (q.result->>'confidence')::float8 END AS confidence,
         CASE WHEN m.home_goals > m.away_goals THEN 'home' WHEN m.home_goals = m.away_goals THEN 'draw' ELSE 'away' END AS actual,
         f.ph, f.pd, f.pa,
         q.outcome <> 'void' AND t.slug IN ('1x2', 'full-analysis') AND m.id IS NOT NULL
           AND f.ph IS NOT NULL AND f.pd IS NOT NULL AND f.pa IS NOT NULL AS scored
  FROM "pronostics" q
  JOIN "pronostic_types" t ON t.id = q.type_id
  LEFT JOIN "football_matches" m ON m.id = q.settled_match_id
  CROSS JOIN LATERAL (
    SELECT CASE WHEN jsonb_typeof(q.result->'probabilities'->'home') = 'number' THEN (q.result->'probabilities'->>'home')::float8 END AS ph,
           CASE WHEN jsonb_typeof(q.result->'probabilities'->'draw') = 'number' THEN (q.result->'probabilities'->>'draw')::float8 END AS pd,
           CASE WHEN jsonb_typeof(q.result->'probabilities'->'away') = 'number' THEN (q.result->'probabilities'->>'away')::float8 END AS pa
  ) AS f
  WHERE q.outcome IS NOT NULL
) AS x
WHERE p.id = x.id;
--> statement-breakpoint
INSERT INTO "track_record_days" ("day", "type_id", "league_id", "won", "lost", "void", "confidence_sum",
                                 "scored_home", "scored_draw", "scored_away", "brier_sum", "rps_sum")
SELECT "settled_day", "type_id", "settled_league_id",
       count(*) FILTER (WHERE "outcome" = 'won'), count(*) FILTER (WHERE "outcome" = 'lost'),
       count(*) FILTER (WHERE "outcome" = 'void'),
       coalesce(sum("settled_confidence") FILTER (WHERE "outcome" <> 'void'), 0),
       count(*) FILTER (WHERE "settled_actual" = 'home'), count(*) FILTER (WHERE "settled_actual" = 'draw'),
       count(*) FILTER (WHERE "settled_actual" = 'away'),
       coalesce(sum("settled_brier"), 0), coalesce(sum("settled_rps"), 0)
FROM "pronostics" WHERE "outcome" IS NOT NULL
GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "track_record_calibration" ("type_id", "bin", "count", "won", "confidence_sum")
SELECT "type_id", least(floor("settled_confidence" * 10), 9)::int,
       count(*), count(*) FILTER (WHERE "outcome" = 'won'), sum("settled_confidence")
FROM "pronostics" WHERE "outcome" IN ('won', 'lost') AND "settled_confidence" IS NOT NULL
GROUP BY 1, 2;
