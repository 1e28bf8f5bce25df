-- Issue 42, round two. Flags: one open flag per kind and target (no longer one forever), and one per
-- provider event (`provider_event`, a webhook's id): news after a resolution opens a new flag, a
-- replayed webhook none. Phones: the housekeeping erases the paying and receiving numbers of
-- payments, withdrawals and payouts past the 10-year retention (partial indexes on the rows still
-- holding one). Admin events: `push.pruning_paused` (a wrong push project pauses pruning).
ALTER TABLE "admin_events" DROP CONSTRAINT "admin_events_type_check";--> statement-breakpoint
DROP INDEX "flags_kind_target_unique";--> statement-breakpoint
ALTER TABLE "flags" ADD COLUMN "provider_event" text;--> statement-breakpoint
CREATE INDEX "withdrawals_phone_kept_idx" ON "withdrawals" USING btree ("created_at") WHERE "withdrawals"."phone" <> '';--> statement-breakpoint
CREATE UNIQUE INDEX "flags_open_kind_target_unique" ON "flags" USING btree ("kind","target_type","target_id") WHERE "flags"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "flags_provider_event_unique" ON "flags" USING btree ("kind","target_type","target_id","provider_event") WHERE "flags"."provider_event" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "flags_kind_target_idx" ON "flags" USING btree ("kind","target_type","target_id");--> statement-breakpoint
CREATE INDEX "payouts_phone_kept_idx" ON "payouts" USING btree ("created_at") WHERE "payouts"."phone" <> '';--> statement-breakpoint
CREATE INDEX "payments_phone_kept_idx" ON "payments" USING btree ("created_at") WHERE "payments"."payer_phone" <> '';--> statement-breakpoint
ALTER TABLE "admin_events" ADD CONSTRAINT "admin_events_type_check" CHECK ("admin_events"."type" in ('withdrawal.requested', 'ticket.created', 'ticket.replied', 'flag.raised', 'push.pruning_paused'));