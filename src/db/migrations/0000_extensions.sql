-- Trigram search over pronostics (and any later text search); available on PGlite as a bundled extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
