-- The sign-up challenge (decision 0104): proofs accepted once, kept until their challenge expires;
-- each stranger's SMS reservation names its network (an IPv4 address, an IPv6 /48) so that, under
-- pressure, a network's share of the strangers' budget can be counted.
CREATE TABLE "signup_proofs" (
	"signature" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sms_budget_spend" ADD COLUMN "network" text;--> statement-breakpoint
CREATE INDEX "sms_budget_spend_network_idx" ON "sms_budget_spend" USING btree ("network","spent_at") WHERE "sms_budget_spend"."network" IS NOT NULL;