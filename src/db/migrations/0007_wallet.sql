CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"admin_id" integer NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"details" jsonb NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "packs" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"credits" integer NOT NULL,
	"price" integer NOT NULL,
	"currency" text DEFAULT 'XAF' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "packs_credits_positive" CHECK ("packs"."credits" > 0),
	CONSTRAINT "packs_price_positive" CHECK ("packs"."price" > 0)
);
--> statement-breakpoint
CREATE TABLE "payment_flags" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_id" integer NOT NULL,
	"reason" text NOT NULL,
	"details" jsonb NOT NULL,
	"resolved_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"pack_id" integer NOT NULL,
	"reference" text NOT NULL,
	"provider" text NOT NULL,
	"provider_reference" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"amount" integer NOT NULL,
	"currency" text DEFAULT 'XAF' NOT NULL,
	"credits" integer NOT NULL,
	"payer_phone" text NOT NULL,
	"channel" text NOT NULL,
	"operator" jsonb,
	"payment_url" text,
	"provider_status" text,
	"next_check_at" timestamp(6) with time zone,
	"checks" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"finished_at" timestamp(6) with time zone,
	"idempotency_key_id" integer,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_reference_unique" UNIQUE("reference"),
	CONSTRAINT "payments_amount_positive" CHECK ("payments"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_admin_id_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_flags" ADD CONSTRAINT "payment_flags_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_pack_id_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."packs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payment_flags_open_idx" ON "payment_flags" USING btree ("created_at") WHERE "payment_flags"."resolved_at" IS NULL;--> statement-breakpoint
CREATE INDEX "payments_user_created_idx" ON "payments" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "payments_pending_check_idx" ON "payments" USING btree ("next_check_at") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "payments_user_pending_idx" ON "payments" USING btree ("user_id") WHERE "payments"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "payments_idempotency_key_unique" ON "payments" USING btree ("idempotency_key_id");--> statement-breakpoint
-- One reference per event: a pronostic's debit and its refund shared `pronostic:<id>`; they become
-- `pronostic:<id>:debit` and `pronostic:<id>:refund` before the reference is made unique.
UPDATE "wallet_operations" SET "reference" = "reference" || ':' || CASE "type" WHEN 'pronostic_debit' THEN 'debit' WHEN 'pronostic_refund' THEN 'refund' ELSE "type" END WHERE "reference" LIKE 'pronostic:%' AND "reference" NOT LIKE 'pronostic:%:%';--> statement-breakpoint
CREATE UNIQUE INDEX "wallet_operations_reference_unique" ON "wallet_operations" USING btree ("reference") WHERE "wallet_operations"."reference" IS NOT NULL;