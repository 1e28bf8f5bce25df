CREATE TABLE "withdrawals" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"amount" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"message" text,
	"phone" text NOT NULL,
	"channel" text NOT NULL,
	"operator" jsonb NOT NULL,
	"decision" text,
	"decided_by" integer,
	"decided_at" timestamp(6) with time zone,
	"decision_message" text,
	"provider" text,
	"transfer_reference" text,
	"provider_reference" text,
	"provider_status" text,
	"next_check_at" timestamp(6) with time zone,
	"checks" integer DEFAULT 0 NOT NULL,
	"payout_deadline_at" timestamp(6) with time zone,
	"escalated_at" timestamp(6) with time zone,
	"escalation_reason" text,
	"finished_at" timestamp(6) with time zone,
	"idempotency_key_id" integer,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "withdrawals_transfer_reference_unique" UNIQUE("transfer_reference"),
	CONSTRAINT "withdrawals_amount_positive" CHECK ("withdrawals"."amount" > 0),
	CONSTRAINT "withdrawals_decision_complete" CHECK (("withdrawals"."decision" IS NULL) = ("withdrawals"."decided_at" IS NULL) AND ("withdrawals"."decision" IS NULL) = ("withdrawals"."decided_by" IS NULL)),
	CONSTRAINT "withdrawals_final_needs_decision" CHECK ("withdrawals"."status" = 'pending' OR "withdrawals"."decision" IS NOT NULL)
);
--> statement-breakpoint
CREATE TABLE "support_ticket_replies" (
	"id" serial PRIMARY KEY NOT NULL,
	"ticket_id" integer NOT NULL,
	"author" text NOT NULL,
	"author_id" integer NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_tickets" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"subject" text NOT NULL,
	"message" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"attachment_key" text,
	"attachment_type" text,
	"attachment_name" text,
	"attachment_size" integer,
	"closed_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "support_tickets_attachment_complete" CHECK (("support_tickets"."attachment_key" IS NULL) = ("support_tickets"."attachment_type" IS NULL))
);
--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_ticket_replies" ADD CONSTRAINT "support_ticket_replies_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_ticket_replies" ADD CONSTRAINT "support_ticket_replies_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "withdrawals_user_created_idx" ON "withdrawals" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "withdrawals_created_idx" ON "withdrawals" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "withdrawals_phone_idx" ON "withdrawals" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "withdrawals_payout_check_idx" ON "withdrawals" USING btree ("next_check_at") WHERE "withdrawals"."status" = 'pending' AND "withdrawals"."decision" = 'approved';--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_idempotency_key_unique" ON "withdrawals" USING btree ("idempotency_key_id");--> statement-breakpoint
CREATE INDEX "support_ticket_replies_ticket_idx" ON "support_ticket_replies" USING btree ("ticket_id","id");--> statement-breakpoint
CREATE INDEX "support_tickets_user_created_idx" ON "support_tickets" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "support_tickets_status_created_idx" ON "support_tickets" USING btree ("status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "support_tickets_created_idx" ON "support_tickets" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);