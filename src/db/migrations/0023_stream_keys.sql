CREATE TABLE "stream_keys" (
	"key_hash" text PRIMARY KEY NOT NULL,
	"token_id" integer NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stream_keys" ADD CONSTRAINT "stream_keys_token_id_access_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."access_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stream_keys_expires_idx" ON "stream_keys" USING btree ("expires_at");