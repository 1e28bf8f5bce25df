CREATE TABLE "track_record_calibration" (
	"type_id" integer NOT NULL,
	"bin" smallint NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"won" integer DEFAULT 0 NOT NULL,
	"confidence_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "track_record_calibration_type_id_bin_pk" PRIMARY KEY("type_id","bin")
);
--> statement-breakpoint
CREATE TABLE "track_record_days" (
	"day" date NOT NULL,
	"type_id" integer NOT NULL,
	"league_id" integer,
	"won" integer DEFAULT 0 NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	"void" integer DEFAULT 0 NOT NULL,
	"confidence_sum" double precision DEFAULT 0 NOT NULL,
	"scored_home" integer DEFAULT 0 NOT NULL,
	"scored_draw" integer DEFAULT 0 NOT NULL,
	"scored_away" integer DEFAULT 0 NOT NULL,
	"brier_sum" double precision DEFAULT 0 NOT NULL,
	"rps_sum" double precision DEFAULT 0 NOT NULL,
	CONSTRAINT "track_record_days_key" UNIQUE NULLS NOT DISTINCT("day","type_id","league_id")
);
--> statement-breakpoint
DROP INDEX "pronostics_settled_idx";--> statement-breakpoint
ALTER TABLE "pronostics" ADD COLUMN "settled_day" date;--> statement-breakpoint
ALTER TABLE "pronostics" ADD COLUMN "settled_league_id" integer;--> statement-breakpoint
ALTER TABLE "pronostics" ADD COLUMN "settled_confidence" double precision;--> statement-breakpoint
ALTER TABLE "pronostics" ADD COLUMN "settled_actual" text;--> statement-breakpoint
ALTER TABLE "pronostics" ADD COLUMN "settled_brier" double precision;--> statement-breakpoint
ALTER TABLE "pronostics" ADD COLUMN "settled_rps" double precision;--> statement-breakpoint
ALTER TABLE "track_record_calibration" ADD CONSTRAINT "track_record_calibration_type_id_pronostic_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."pronostic_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_record_days" ADD CONSTRAINT "track_record_days_type_id_pronostic_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."pronostic_types"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "track_record_days" ADD CONSTRAINT "track_record_days_league_id_football_leagues_id_fk" FOREIGN KEY ("league_id") REFERENCES "public"."football_leagues"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pronostics_user_settled_idx" ON "pronostics" USING btree ("user_id","type_id","settled_day","settled_league_id","outcome","settled_confidence","settled_actual","settled_brier","settled_rps") WHERE "pronostics"."outcome" IS NOT NULL;