-- The numbers each stranger network asked sign-in codes for while under pressure (issue 55,
-- decision 0122): a network that asked for many distinct numbers in the hour is challenged for every
-- number, known or not, so its answers say nothing about who has an account. Tags, never numbers.
CREATE TABLE "otp_asks" (
	"network" text NOT NULL,
	"phone_tag" text NOT NULL,
	"asked_at" timestamp(6) with time zone NOT NULL,
	CONSTRAINT "otp_asks_network_phone_tag_pk" PRIMARY KEY("network","phone_tag")
);
--> statement-breakpoint
CREATE INDEX "otp_asks_network_idx" ON "otp_asks" USING btree ("network","asked_at");--> statement-breakpoint
CREATE INDEX "otp_asks_asked_idx" ON "otp_asks" USING btree ("asked_at");