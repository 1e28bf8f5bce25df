-- Issue 55, round three. Four eyes (decision 0126): admin actions that wait for a second, different
-- admin. The tombstone's phone hash keyed by TOMBSTONE_KEY (decision 0125): every hash written so far
-- is keyed by APP_SECRET, marked so here; the service re-keys them once at its next start, in code
-- (the key is in its configuration, never in the database).
CREATE TABLE "admin_approvals" (
	"id" serial PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" integer NOT NULL,
	"requested_by" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"decided_by" integer,
	"decided_at" timestamp(6) with time zone,
	"details" jsonb NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_events" DROP CONSTRAINT "admin_events_type_check";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "welcomed_phone_hash_key" text;--> statement-breakpoint
UPDATE "users" SET "welcomed_phone_hash_key" = 'app_secret' WHERE "welcomed_phone_hash" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_approvals_pending_unique" ON "admin_approvals" USING btree ("action","target_type","target_id") WHERE "admin_approvals"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "admin_approvals_status_created_idx" ON "admin_approvals" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "admin_events" ADD CONSTRAINT "admin_events_type_check" CHECK ("admin_events"."type" in ('withdrawal.requested', 'ticket.created', 'ticket.replied', 'flag.raised', 'push.pruning_paused', 'approval.requested'));