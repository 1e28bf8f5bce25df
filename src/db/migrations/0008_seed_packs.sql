-- The five credit packs of DESIGN.md (Wallet); admins edit them later, so they are data, not code.
INSERT INTO "packs" ("id", "name", "credits", "price") VALUES
  (1, 'Découverte', 5, 500),
  (2, 'Standard', 12, 1000),
  (3, 'Premium', 35, 2500),
  (4, 'VIP', 80, 5000),
  (5, 'Champion', 175, 10000);
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('packs', 'id'), 5);
