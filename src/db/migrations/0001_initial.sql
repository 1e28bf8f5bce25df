CREATE TABLE "idempotency_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response_body" jsonb,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pronostic_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text NOT NULL,
	"difficulty" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pronostic_types_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "pronostics" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"type_id" integer NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"credits_cost" integer NOT NULL,
	"teams_details" jsonb NOT NULL,
	"result" jsonb,
	"ai_model" text NOT NULL,
	"search_text" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"run_after" timestamp(6) with time zone NOT NULL,
	"lease_until" timestamp(6) with time zone,
	"deadline_at" timestamp(6) with time zone NOT NULL,
	"last_error" text,
	"finished_at" timestamp(6) with time zone,
	"deleted_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "access_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"last_used_at" timestamp(6) with time zone NOT NULL,
	"revoked_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "access_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
CREATE TABLE "otp_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"phone" text NOT NULL,
	"channel" text NOT NULL,
	"code_hash" text NOT NULL,
	"ip" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" timestamp(6) with time zone NOT NULL,
	"expires_at" timestamp(6) with time zone NOT NULL,
	"closed_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"phone" text NOT NULL,
	"country" text NOT NULL,
	"name" text,
	"username" text,
	"avatar_path" text,
	"affiliation_code" text NOT NULL,
	"godfather_id" integer,
	"role" text DEFAULT 'user' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"credits_balance" integer DEFAULT 0 NOT NULL,
	"money_balance" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_phone_unique" UNIQUE("phone"),
	CONSTRAINT "users_username_unique" UNIQUE("username"),
	CONSTRAINT "users_affiliation_code_unique" UNIQUE("affiliation_code"),
	CONSTRAINT "users_credits_balance_non_negative" CHECK ("users"."credits_balance" >= 0),
	CONSTRAINT "users_money_balance_non_negative" CHECK ("users"."money_balance" >= 0)
);
--> statement-breakpoint
CREATE TABLE "wallet_operations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"currency" text NOT NULL,
	"amount" integer NOT NULL,
	"balance_after" integer NOT NULL,
	"reference" text,
	"description" text NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pronostics" ADD CONSTRAINT "pronostics_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pronostics" ADD CONSTRAINT "pronostics_type_id_pronostic_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."pronostic_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_tokens" ADD CONSTRAINT "access_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "otp_codes" ADD CONSTRAINT "otp_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_godfather_id_users_id_fk" FOREIGN KEY ("godfather_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallet_operations" ADD CONSTRAINT "wallet_operations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "idempotency_keys_expires_idx" ON "idempotency_keys" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_unique" ON "idempotency_keys" USING btree ("user_id","scope","key");--> statement-breakpoint
CREATE INDEX "pronostics_user_list_idx" ON "pronostics" USING btree ("user_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "pronostics"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "pronostics_due_idx" ON "pronostics" USING btree ("run_after") WHERE "pronostics"."status" = 'processing';--> statement-breakpoint
CREATE INDEX "pronostics_search_trgm_idx" ON "pronostics" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "access_tokens_last_used_idx" ON "access_tokens" USING btree ("last_used_at");--> statement-breakpoint
CREATE INDEX "otp_codes_phone_sent_idx" ON "otp_codes" USING btree ("phone","sent_at");--> statement-breakpoint
CREATE INDEX "otp_codes_ip_sent_idx" ON "otp_codes" USING btree ("ip","sent_at");--> statement-breakpoint
CREATE INDEX "otp_codes_expires_idx" ON "otp_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "users_godfather_idx" ON "users" USING btree ("godfather_id");--> statement-breakpoint
CREATE INDEX "wallet_operations_user_created_idx" ON "wallet_operations" USING btree ("user_id","created_at","id");