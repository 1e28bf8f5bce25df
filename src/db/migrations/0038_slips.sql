-- Slips (issue 53, decision 0127): the score matrix a successful analysis used, the slips users
-- check and save on their own analyses, the checks counted per day; the event log learns `slip.settled`.
CREATE TABLE "pronostic_matrices" (
	"pronostic_id" integer PRIMARY KEY NOT NULL,
	"matrix" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slip_checks_daily" (
	"day" date PRIMARY KEY NOT NULL,
	"checked" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "slip_legs" (
	"slip_id" integer NOT NULL,
	"position" smallint NOT NULL,
	"pronostic_id" integer NOT NULL,
	"market" text NOT NULL,
	"pick" text NOT NULL,
	"odds" double precision NOT NULL,
	"probability" double precision NOT NULL,
	"outcome" text,
	CONSTRAINT "slip_legs_slip_id_position_pk" PRIMARY KEY("slip_id","position")
);
--> statement-breakpoint
CREATE TABLE "slips" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"stake" integer NOT NULL,
	"probability" double precision NOT NULL,
	"odds" double precision NOT NULL,
	"expected_return" double precision NOT NULL,
	"returned" double precision,
	"settled_at" timestamp(6) with time zone,
	"deleted_at" timestamp(6) with time zone,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_events" DROP CONSTRAINT "user_events_type_check";--> statement-breakpoint
ALTER TABLE "pronostic_matrices" ADD CONSTRAINT "pronostic_matrices_pronostic_id_pronostics_id_fk" FOREIGN KEY ("pronostic_id") REFERENCES "public"."pronostics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slip_legs" ADD CONSTRAINT "slip_legs_slip_id_slips_id_fk" FOREIGN KEY ("slip_id") REFERENCES "public"."slips"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slip_legs" ADD CONSTRAINT "slip_legs_pronostic_id_pronostics_id_fk" FOREIGN KEY ("pronostic_id") REFERENCES "public"."pronostics"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slips" ADD CONSTRAINT "slips_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "slips_user_list_idx" ON "slips" USING btree ("user_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "slips"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "slips_open_idx" ON "slips" USING btree ("id") WHERE "slips"."status" = 'open';--> statement-breakpoint
ALTER TABLE "user_events" ADD CONSTRAINT "user_events_type_check" CHECK ("user_events"."type" in ('pronostic.succeeded', 'pronostic.cancelled', 'payment.succeeded', 'payment.failed', 'withdrawal.succeeded', 'withdrawal.cancelled', 'credits.adjusted', 'ticket.replied', 'slip.settled'));