ALTER TABLE "pronostics" ADD COLUMN "idempotency_key_id" integer;--> statement-breakpoint
CREATE UNIQUE INDEX "pronostics_idempotency_key_unique" ON "pronostics" USING btree ("idempotency_key_id");