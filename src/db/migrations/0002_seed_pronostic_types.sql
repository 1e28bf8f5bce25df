-- The six pronostic types of DESIGN.md; admins may edit them later, so they are data, not code.
INSERT INTO "pronostic_types" ("id", "name", "slug", "difficulty", "description") VALUES
  (1, 'Résultat du match (1X2)', '1x2', 1, 'Victoire à domicile, match nul ou victoire à l''extérieur.'),
  (2, 'Double chance', 'double-chance', 1, 'Deux issues sur trois couvertes : 1X, 12 ou X2.'),
  (3, 'Les deux équipes marquent', 'btts', 2, 'Les deux équipes marqueront-elles au moins un but ?'),
  (4, 'Plus/Moins de 2,5 buts', 'over-under-2-5', 2, 'Trois buts ou plus dans le match, ou au plus deux.'),
  (5, 'Score exact', 'exact-score', 3, 'Les scores les plus probables du match.'),
  (6, 'Analyse complète', 'full-analysis', 5, 'Tous les marchés, les buts attendus et une analyse détaillée.')
ON CONFLICT ("id") DO NOTHING;
--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('pronostic_types', 'id'), (SELECT max("id") FROM "pronostic_types"));
