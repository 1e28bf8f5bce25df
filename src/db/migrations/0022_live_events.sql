CREATE TABLE "admin_events" (
	"seq" integer PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_events_type_check" CHECK ("admin_events"."type" in ('withdrawal.requested', 'ticket.created', 'ticket.replied', 'flag.raised'))
);
--> statement-breakpoint
CREATE TABLE "event_counters" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"last_seq" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_events" (
	"user_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_events_user_id_seq_pk" PRIMARY KEY("user_id","seq"),
	CONSTRAINT "user_events_type_check" CHECK ("user_events"."type" in ('pronostic.succeeded', 'pronostic.cancelled', 'payment.succeeded', 'payment.failed', 'withdrawal.succeeded', 'withdrawal.cancelled', 'credits.adjusted', 'ticket.replied'))
);
--> statement-breakpoint
ALTER TABLE "user_events" ADD CONSTRAINT "user_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_events_created_idx" ON "admin_events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "user_events_created_idx" ON "user_events" USING btree ("created_at");