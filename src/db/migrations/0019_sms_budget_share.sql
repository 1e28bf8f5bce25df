CREATE TABLE "sms_budget_spend" (
	"id" serial PRIMARY KEY NOT NULL,
	"calling_code" text NOT NULL,
	"returning" boolean NOT NULL,
	"spent_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone_verified_at" timestamp(6) with time zone;--> statement-breakpoint
CREATE INDEX "sms_budget_spend_calling_code_idx" ON "sms_budget_spend" USING btree ("calling_code","spent_at");--> statement-breakpoint
CREATE INDEX "sms_budget_spend_spent_idx" ON "sms_budget_spend" USING btree ("spent_at");--> statement-breakpoint
-- A number that ever got a token (or used a code) has verified one: it is a returning number.
UPDATE "users" u SET "phone_verified_at" = coalesce(
	(SELECT min(t."created_at") FROM "access_tokens" t WHERE t."user_id" = u."id"),
	(SELECT min(c."closed_at") FROM "otp_codes" c WHERE c."user_id" = u."id" AND c."closed_at" IS NOT NULL),
	u."created_at")
WHERE EXISTS (SELECT 1 FROM "access_tokens" t WHERE t."user_id" = u."id");--> statement-breakpoint
-- The last hour's codes keep counting in the budgets after the upgrade.
INSERT INTO "sms_budget_spend" ("calling_code", "returning", "spent_at")
SELECT c."calling_code", false, c."sent_at" FROM "otp_codes" c WHERE c."sent_at" > now() - interval '1 hour';
