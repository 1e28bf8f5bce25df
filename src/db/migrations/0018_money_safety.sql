CREATE TABLE "flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"details" jsonb NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"note" text,
	"resolved_by" integer,
	"resolved_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" serial PRIMARY KEY NOT NULL,
	"withdrawal_id" integer NOT NULL,
	"provider" text NOT NULL,
	"reference" text NOT NULL,
	"provider_reference" text,
	"provider_status" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'XAF' NOT NULL,
	"phone" text NOT NULL,
	"channel" text NOT NULL,
	"create_attempted_at" timestamp(6) with time zone NOT NULL,
	"create_answered_at" timestamp(6) with time zone,
	"next_check_at" timestamp(6) with time zone,
	"checks" integer DEFAULT 0 NOT NULL,
	"deadline_at" timestamp(6) with time zone NOT NULL,
	"finished_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payouts_withdrawal_id_unique" UNIQUE("withdrawal_id"),
	CONSTRAINT "payouts_reference_unique" UNIQUE("reference"),
	CONSTRAINT "payouts_amount_positive" CHECK ("payouts"."amount" > 0)
);
--> statement-breakpoint
-- The flags of payments move to the one flags table (payments and withdrawals), kinds renamed.
INSERT INTO "flags" ("kind", "target_type", "target_id", "details", "status", "resolved_at", "created_at")
SELECT DISTINCT ON (kind, "payment_id")
	CASE
		WHEN "reason" = 'complete_after_failed' THEN 'late_complete'
		WHEN "reason" = 'refunded_after_success' THEN 'refund_after_success'
		WHEN "reason" LIKE '%\_after\_success' THEN 'failed_after_success'
		ELSE "reason"
	END AS kind,
	'payment', "payment_id", "details",
	CASE WHEN "resolved_at" IS NULL THEN 'open' ELSE 'resolved' END, "resolved_at", "created_at"
FROM "payment_flags"
ORDER BY kind, "payment_id", "created_at";
--> statement-breakpoint
-- The transfer state of approved withdrawals moves to payouts: every approval's create was attempted.
INSERT INTO "payouts" ("withdrawal_id", "provider", "reference", "provider_reference", "provider_status",
	"status", "amount", "currency", "phone", "channel", "create_attempted_at", "next_check_at", "checks",
	"deadline_at", "finished_at", "created_at", "updated_at")
SELECT "id", "provider", "transfer_reference", "provider_reference", "provider_status",
	CASE "status" WHEN 'success' THEN 'paid' WHEN 'cancelled' THEN 'failed' ELSE 'pending' END,
	"amount", 'XAF', "phone", "channel", "decided_at",
	CASE WHEN "status" = 'pending' THEN coalesce("next_check_at", now()) END, "checks",
	coalesce("payout_deadline_at", "decided_at"), "finished_at", "decided_at", "updated_at"
FROM "withdrawals"
WHERE "transfer_reference" IS NOT NULL AND "provider" IS NOT NULL;
--> statement-breakpoint
DROP TABLE "payment_flags" CASCADE;--> statement-breakpoint
ALTER TABLE "withdrawals" DROP CONSTRAINT "withdrawals_transfer_reference_unique";--> statement-breakpoint
DROP INDEX "withdrawals_payout_check_idx";--> statement-breakpoint
ALTER TABLE "flags" ADD CONSTRAINT "flags_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_withdrawal_id_withdrawals_id_fk" FOREIGN KEY ("withdrawal_id") REFERENCES "public"."withdrawals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "flags_kind_target_unique" ON "flags" USING btree ("kind","target_type","target_id");--> statement-breakpoint
CREATE INDEX "flags_status_created_idx" ON "flags" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payouts_check_idx" ON "payouts" USING btree ("next_check_at") WHERE "payouts"."next_check_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "provider";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "transfer_reference";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "provider_reference";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "provider_status";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "next_check_at";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "checks";--> statement-breakpoint
ALTER TABLE "withdrawals" DROP COLUMN "payout_deadline_at";