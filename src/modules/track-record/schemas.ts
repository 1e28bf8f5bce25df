// Response schemas of the track-record endpoints.
import { Type } from 'typebox';

const Rate = Type.Union([Type.Number(), Type.Null()]);

export const FiguresSchema = Type.Object({
  settled: Type.Integer({ description: 'Analyses réglées (gagnées + perdues + annulées)' }),
  won: Type.Integer(),
  lost: Type.Integer(),
  void: Type.Integer({ description: 'Annulées (match non joué ou introuvable) : hors taux de réussite' }),
  hit_rate: Rate,
  mean_confidence: Rate,
  one_x_two: Type.Union([
    Type.Null(),
    Type.Object({
      count: Type.Integer(),
      rps: Type.Number(),
      brier: Type.Number(),
      baseline_rps: Type.Number(),
      baseline_brier: Type.Number(),
    }),
  ]),
});

const Windows = Type.Object({
  last_30_days: FiguresSchema,
  last_90_days: FiguresSchema,
  last_365_days: FiguresSchema,
  all_time: FiguresSchema,
});

export const TrackRecordSchema = Type.Object({
  generated_at: Type.String(),
  baseline: Type.String(),
  overall: Windows,
  by_type: Type.Array(Type.Object({ type: Type.String(), windows: Windows })),
  by_league: Type.Array(
    Type.Object({
      league: Type.Union([
        Type.Null(),
        Type.Object({ id: Type.Integer(), code: Type.String(), name: Type.String() }),
      ]),
      windows: Windows,
    }),
  ),
  calibration: Type.Array(
    Type.Object({
      from: Type.Number(),
      to: Type.Number(),
      count: Type.Integer(),
      mean_confidence: Type.Number(),
      hit_rate: Type.Number(),
    }),
  ),
  market_calibration: Type.Object(
    {
      min_bin: Type.Integer({ description: 'Le moins de matchs qu’un intervalle publié contient' }),
      matches: Type.Integer({ description: 'Matchs réglés dont les cotes 1X2 sont connues' }),
      bins: Type.Array(
        Type.Object({
          from: Type.Number(),
          to: Type.Number(),
          count: Type.Integer(),
          mean_probability: Type.Number(),
          hit_rate: Type.Number(),
        }),
      ),
    },
    {
      description:
        'Calibration des bookmakers sur les matchs où nos analyses ont été réglées : probabilité sans marge du favori (cote de clôture, sinon d’avant-match ; Pinnacle, sinon la moyenne du marché) et réussite du favori, par intervalles fusionnés jusqu’à compter au moins min_bin matchs',
    },
  ),
  monthly: Type.Array(
    Type.Object({
      month: Type.String(),
      settled: Type.Integer(),
      won: Type.Integer(),
      lost: Type.Integer(),
      void: Type.Integer(),
      hit_rate: Rate,
      mean_confidence: Rate,
    }),
  ),
});

const ReturnFiguresSchema = Type.Object({
  bets: Type.Integer(),
  staked: Type.Integer({ description: 'XAF: bets × 1,000' }),
  returned: Type.Integer({ description: 'XAF' }),
  roi: Type.Union([Type.Number(), Type.Null()], { description: 'returned / staked − 1; null without bets' }),
  roi_low: Type.Union([Type.Number(), Type.Null()], {
    description: 'roi − 1.96 standard errors of the mean return',
  }),
  roi_high: Type.Union([Type.Number(), Type.Null()], {
    description: 'roi + 1.96 standard errors of the mean return',
  }),
});

const ReturnsPair = {
  analyses: ReturnFiguresSchema,
  favourite: Type.Object(ReturnFiguresSchema.properties, {
    description:
      'The same flat bet on the bookmaker’s favourite of that market, on the same analyses’ matches',
  }),
};

/** The track record in money (DESIGN "Slips"): flat 1,000 XAF bets at the odds stored with each analysis. */
export const ReturnsSchema = Type.Object({
  stake: Type.Integer({ description: 'The flat stake of each bet (XAF)' }),
  markets: Type.Array(Type.Object({ market: Type.String(), ...ReturnsPair }), {
    description: 'Every market; those without stored odds show bets: 0',
  }),
  months: Type.Array(Type.Object({ month: Type.String({ examples: ['2027-03'] }), ...ReturnsPair })),
  all: Type.Object(ReturnsPair),
});
