// Request and response schemas of the pronostic endpoints (the spec's field names, exactly).
import { Type } from 'typebox';
import { oddsModes, outcomeFilters, pronosticStatuses } from '../../lib/allowed-values.js';
import { PageMetaSchema, PageQuery, Timestamp } from '../../schemas/common.js';

export const PronosticTypeSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  slug: Type.String(),
  description: Type.String(),
  difficulty: Type.Integer({ description: 'Crédits nécessaires' }),
  active: Type.Boolean(),
});

export const TeamsDetails = Type.Object(
  {
    home: Type.String({ minLength: 1, maxLength: 100 }),
    away: Type.String({ minLength: 1, maxLength: 100 }),
    league: Type.Optional(Type.String({ maxLength: 100 })),
    date: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 date or date-time' })),
  },
  { additionalProperties: true, maxProperties: 30, description: 'Match data; other keys are kept as sent' },
);

/**
 * The analysis's keys are open (DESIGN.md's result object; the spec does not show them), but the
 * values a client branches on are declared: `data_quality.odds`.
 */
const AnalysisDataQuality = Type.Object(
  {
    odds: Type.Optional(
      Type.Enum(oddsModes, {
        description:
          'prematch: the fixture’s pre-match odds were used; market: past matches’ odds (none for this match); none: results only',
      }),
    ),
  },
  { additionalProperties: true },
);

export const PronosticResult = Type.Union(
  [
    Type.Null(),
    Type.Object({ data_quality: Type.Optional(AnalysisDataQuality) }, { additionalProperties: true }),
  ],
  { description: 'Null while processing; the analysis on success; {reason, message} when cancelled' },
);

const Status = Type.Enum(pronosticStatuses);

const pronosticFields = {
  id: Type.Integer(),
  type_id: Type.Integer(),
  status: Status,
  credits_cost: Type.Integer(),
  teams_details: TeamsDetails,
  result: PronosticResult,
  created_at: Timestamp,
};

export const CreatedPronostic = Type.Object(pronosticFields);
export const ListedPronostic = Type.Object({ ...pronosticFields, ai_model: Type.String() });
export const DetailedPronostic = Type.Object({
  ...pronosticFields,
  type: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    slug: Type.String(),
    difficulty: Type.Integer(),
  }),
  ai_model: Type.String(),
});

export const CreateBody = Type.Object({
  type_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  teams_details: Type.Optional(TeamsDetails),
  fixture_id: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description:
        'A scheduled fixture (GET /api/fixtures) not kicked off yet; teams_details is then built from it (required without it)',
    }),
  ),
});

export const ListQuery = Type.Object({
  status: Type.Optional(Status),
  /** The track-record filter: a settled outcome, or `pending` (not settled yet, not cancelled). */
  outcome: Type.Optional(Type.Enum(outcomeFilters)),
  search: Type.Optional(Type.String({ maxLength: 100 })),
  /** One type's pronostics (the web app's history filter, DESIGN "Web app"). */
  type_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
  ...PageQuery,
});

export const ListData = Type.Object({ pronostics: Type.Array(ListedPronostic), meta: PageMetaSchema });

/** A type as the back office sees it: inactive ones too, and when it was created. */
/** The back office sees the French in `name` and `description` and the English beside them. */
export const AdminPronosticTypeSchema = Type.Object({
  ...PronosticTypeSchema.properties,
  name_en: Type.Union([Type.String(), Type.Null()], {
    description: 'English name; null: the French is shown',
  }),
  description_en: Type.Union([Type.String(), Type.Null()], {
    description: 'English description; null: the French is shown',
  }),
  created_at: Timestamp,
});

const TypeName = Type.String({ minLength: 2, maxLength: 60 });
const TypeDescription = Type.String({ minLength: 3, maxLength: 500 });
const TypeDifficulty = Type.Integer({ minimum: 1, maximum: 5, description: 'Crédits nécessaires' });

export const UpdateTypeBody = Type.Object(
  {
    name: Type.Optional(TypeName),
    description: Type.Optional(TypeDescription),
    name_en: Type.Optional(TypeName),
    description_en: Type.Optional(TypeDescription),
    difficulty: Type.Optional(TypeDifficulty),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, description: 'At least one field' },
);

export const CreateTypeBody = Type.Object(
  {
    slug: Type.String({
      minLength: 1,
      maxLength: 40,
      description: 'A market the engine answers (one of its slugs); one type per market',
      examples: ['btts'],
    }),
    name: TypeName,
    description: TypeDescription,
    name_en: Type.Optional(TypeName),
    description_en: Type.Optional(TypeDescription),
    difficulty: TypeDifficulty,
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
