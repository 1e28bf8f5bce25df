CREATE TABLE "otp_network_attempts" (
	"code_id" integer NOT NULL,
	"network" text NOT NULL,
	"attempts" integer NOT NULL,
	CONSTRAINT "otp_network_attempts_code_id_network_pk" PRIMARY KEY("code_id","network")
);
--> statement-breakpoint
ALTER TABLE "otp_codes" ADD COLUMN "calling_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "otp_network_attempts" ADD CONSTRAINT "otp_network_attempts_code_id_otp_codes_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."otp_codes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "otp_codes_calling_code_sent_idx" ON "otp_codes" USING btree ("calling_code","sent_at");--> statement-breakpoint
CREATE INDEX "otp_codes_sent_idx" ON "otp_codes" USING btree ("sent_at");