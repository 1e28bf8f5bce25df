-- English beside French (issue 40): an account's language, for what is sent with no request there
-- to ask (push, narration, payout messages, ledger rows), and the language a pronostic's texts were
-- written in (a stored result keeps it). French by default: existing rows read exactly as before.
ALTER TABLE "pronostics" ADD COLUMN "locale" text DEFAULT 'fr' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locale" text DEFAULT 'fr' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_locale_check" CHECK ("users"."locale" in ('fr', 'en'));