-- Welcome credits once per phone: a deleted account's tombstone keeps a keyed hash of its phone
-- (HMAC with APP_SECRET, never the phone itself), and a new account on a number found there gets no
-- second WELCOME_CREDITS. The partial index holds tombstones only.
ALTER TABLE "users" ADD COLUMN "welcomed_phone_hash" text;--> statement-breakpoint
CREATE INDEX "users_welcomed_phone_hash_idx" ON "users" USING btree ("welcomed_phone_hash") WHERE "users"."welcomed_phone_hash" IS NOT NULL;