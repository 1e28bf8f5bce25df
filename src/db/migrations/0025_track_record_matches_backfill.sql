-- Custom SQL (the schema cannot express a data backfill): the matches the analyses settled before
-- 0024 were settled on, with how many analyses each, once. From now on the settlement statement
-- keeps `track_record_matches` with the other rollups. Runs before the service listens (migrations
-- run at start), so no settlement pass writes meanwhile.
INSERT INTO "track_record_matches" ("match_id", "settled")
SELECT "settled_match_id", count(*)
FROM "pronostics" WHERE "outcome" IS NOT NULL AND "settled_match_id" IS NOT NULL
GROUP BY 1
ON CONFLICT ("match_id") DO NOTHING;
