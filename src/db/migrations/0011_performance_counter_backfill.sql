-- Custom SQL (the schema cannot express a data backfill): every user's live pronostics counted once,
-- for the counter the pronostic service keeps from now on in the same transaction as each create
-- and soft delete. Run with no service writing pronostics (migrations run at start, before listening).
INSERT INTO "pronostic_counters" ("user_id", "live")
SELECT "user_id", count(*)::int FROM "pronostics" WHERE "deleted_at" IS NULL GROUP BY "user_id"
ON CONFLICT ("user_id") DO UPDATE SET "live" = EXCLUDED."live";
