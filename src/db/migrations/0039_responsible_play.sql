-- Responsible play (issue 54): the account's date of birth and self-exclusion, the spending limits a
-- user sets (a row per period, a raise or removal pending 72 h), and the per-window totals of their
-- payments that a checkout reads and raises in its own transaction (never a scan of the payments).
CREATE TABLE "spending_totals" (
	"user_id" integer NOT NULL,
	"period" text NOT NULL,
	"window_start" date NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "spending_totals_user_id_period_window_start_pk" PRIMARY KEY("user_id","period","window_start")
);
--> statement-breakpoint
CREATE TABLE "spending_limits" (
	"user_id" integer NOT NULL,
	"period" text NOT NULL,
	"amount" integer,
	"pending_amount" integer,
	"pending_at" timestamp(6) with time zone,
	"updated_at" timestamp(6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "spending_limits_user_id_period_pk" PRIMARY KEY("user_id","period")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "birth_date" date;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "self_excluded_until" timestamp(6) with time zone;--> statement-breakpoint
ALTER TABLE "spending_totals" ADD CONSTRAINT "spending_totals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "spending_limits" ADD CONSTRAINT "spending_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- The windows still open hold the payments already pending or succeeded in them (Douala is UTC+1 all
-- year); older windows are never read again.
INSERT INTO "spending_totals" ("user_id", "period", "window_start", "amount")
SELECT "user_id", "period", "window_start", sum("amount")::integer FROM (
  SELECT "user_id", "amount", p.period,
    CASE p.period
      WHEN 'daily' THEN ("created_at" AT TIME ZONE 'UTC' + interval '1 hour')::date
      WHEN 'weekly' THEN date_trunc('week', "created_at" AT TIME ZONE 'UTC' + interval '1 hour')::date
      ELSE date_trunc('month', "created_at" AT TIME ZONE 'UTC' + interval '1 hour')::date
    END AS "window_start"
  FROM "payments" CROSS JOIN (VALUES ('daily'), ('weekly'), ('monthly')) AS p(period)
  WHERE "status" IN ('pending', 'success') AND "created_at" > now() - interval '32 days'
) AS windows
GROUP BY "user_id", "period", "window_start";
