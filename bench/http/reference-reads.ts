// The reference for the reads issue 57 added to the bench: `GET /api/competitions`, `GET
// /api/fixtures` filtered by competition and `POST /api/user/slips/check`, written the obvious way:
// bare Fastify and a node-postgres pool of the same size, plain parameterized queries (unnamed), no
// cache, the same token check as bench/http/reference-server.ts (copied: that server stays the
// yardstick of issue 28), the same fields in the same envelope. The catalogue's names and the
// engine's slip arithmetic are imported (data and pure functions, the same work either way).
// Started by bench/http/run.ts as a child process.
import Fastify from 'fastify';
import pg from 'pg';
import { decodeMatrix } from '../../src/engine/score-matrix.js';
import { jointProbability, slipFigures } from '../../src/engine/slip.js';
import { en } from '../../src/lib/catalogues/en.js';
import { fr } from '../../src/lib/catalogues/fr.js';
import {
  basisOf,
  COMPETITIONS,
  type Competition,
  competitionOf,
  HISTORY_DAYS,
} from '../../src/lib/competitions.js';
import { keyedHash } from '../../src/lib/crypto.js';

const url = process.env.REF_DATABASE_URL as string;
const secret = process.env.REF_APP_SECRET as string;
const port = Number(process.env.REF_PORT ?? 0);
const IDLE_MS = 600_000;
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;
const TOUCH_MS = 15_000;

const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c TimeZone=UTC' });
const app = Fastify({ logger: false });

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

class Unauthenticated extends Error {}
class Invalid extends Error {
  constructor(readonly errors: Record<string, string[]>) {
    super(Object.values(errors)[0]?.[0] ?? 'invalid');
  }
}

async function authenticate(header: string | undefined): Promise<{ id: number }> {
  const match = header ? /^Bearer ([A-Za-z0-9_-]{20,128})$/.exec(header.trim()) : null;
  if (!match?.[1]) throw new Unauthenticated();
  const { rows } = await pool.query(
    `SELECT t.id, t.last_used_at, t.created_at, u.id AS user_id, u.status
       FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1 AND t.revoked_at IS NULL LIMIT 1`,
    [keyedHash(secret, 'token', match[1])],
  );
  const row = rows[0];
  if (row?.status !== 'active') throw new Unauthenticated();
  const now = Date.now();
  if (now - new Date(row.created_at).getTime() >= MAX_AGE_MS) throw new Unauthenticated();
  const idle = now - new Date(row.last_used_at).getTime();
  if (idle >= IDLE_MS - TOUCH_MS) throw new Unauthenticated();
  if (idle >= TOUCH_MS)
    await pool.query('UPDATE access_tokens SET last_used_at = now() WHERE id = $1', [row.id]);
  return { id: row.user_id };
}

app.setErrorHandler((error, _request, reply) => {
  if (error instanceof Unauthenticated) {
    return reply.code(401).send({ user: null, message: 'Non authentifié.', data: [], errors: [] });
  }
  if (error instanceof Invalid) {
    return reply.code(422).send({ user: null, message: error.message, data: [], errors: error.errors });
  }
  return reply.code(500).send({ user: null, message: String(error), data: [], errors: [] });
});

const localeOf = (header: string | undefined) =>
  header?.trim().toLowerCase().startsWith('en') ? 'en' : 'fr';

function leagueView(code: string, storedName: string, locale: 'fr' | 'en') {
  const competition = competitionOf(code);
  return {
    code,
    name: competition?.name[locale] ?? storedName,
    country: competition?.country
      ? { code: competition.country.code, name: competition.country.name[locale] }
      : null,
    kind: competition?.kind ?? 'league',
  };
}

app.get('/api/competitions', async (request) => {
  const user = await authenticate(request.headers.authorization);
  const locale = localeOf(request.headers['accept-language']);
  const since = new Date(Date.now() - HISTORY_DAYS * 86_400_000).toISOString().slice(0, 10);
  const [histories, upcoming] = await Promise.all([
    pool.query(
      `SELECT l.id, l.code, l.name, count(m.id)::int AS matches,
              count(m.id) FILTER (WHERE m.played_on >= $1)::int AS recent,
              count(m.id) FILTER (WHERE m.played_on >= $1 AND (
                m.pre_pinnacle_home IS NOT NULL OR m.pre_average_home IS NOT NULL OR
                m.close_pinnacle_home IS NOT NULL OR m.close_average_home IS NOT NULL))::int AS with_odds
         FROM football_leagues l LEFT JOIN football_matches m ON m.league_id = l.id
        GROUP BY l.id, l.code, l.name`,
      [since],
    ),
    pool.query(
      `SELECT league_id, count(*)::int AS upcoming FROM fixtures
        WHERE status = 'scheduled' AND kickoff_at >= now() GROUP BY league_id`,
    ),
  ]);
  const upcomingOf = new Map<number, number>(upcoming.rows.map((row) => [row.league_id, row.upcoming]));
  const stored = new Map(histories.rows.map((row) => [String(row.code).toUpperCase(), row]));
  const all: Competition[] = [...COMPETITIONS];
  for (const row of histories.rows) {
    if (!competitionOf(row.code) && (row.matches > 0 || upcomingOf.has(row.id))) {
      all.push({
        code: row.code,
        name: { fr: row.name, en: row.name },
        country: null,
        kind: 'league',
        tier: null,
        source: 'division',
      });
    }
  }
  const countryName = (competition: Competition) => competition.country?.name[locale] ?? '\uffff';
  all.sort(
    (a, b) =>
      countryName(a).localeCompare(countryName(b), locale) ||
      (a.tier ?? 99) - (b.tier ?? 99) ||
      a.code.localeCompare(b.code),
  );
  const competitions = all.map((competition) => {
    const row = stored.get(competition.code.toUpperCase());
    return {
      code: competition.code,
      name: competition.name[locale],
      country: competition.country
        ? { code: competition.country.code, name: competition.country.name[locale] }
        : null,
      kind: competition.kind,
      tier: competition.tier,
      basis: basisOf(row?.recent ?? 0, row?.with_odds ?? 0),
      upcoming_fixtures: row ? (upcomingOf.get(row.id) ?? 0) : 0,
    };
  });
  return {
    user: { id: user.id },
    message: 'Liste des compétitions.',
    data: { competitions },
    errors: [],
  };
});

app.get('/api/fixtures', async (request) => {
  const user = await authenticate(request.headers.authorization);
  const locale = localeOf(request.headers['accept-language']);
  const query = request.query as { page?: string; per_page?: string; league?: string };
  const page = Number(query.page ?? 1);
  const perPage = Number(query.per_page ?? 10);
  const empty = (total: number) => ({
    user: { id: user.id },
    message: 'Matchs à venir.',
    data: {
      fixtures: [] as unknown[],
      meta: {
        current_page: page,
        last_page: Math.max(1, Math.ceil(total / perPage)),
        per_page: perPage,
        total,
        has_more: false,
      },
    },
    errors: [],
  });
  const text = (query.league ?? '').trim().toLowerCase();
  const { rows: leagues } = await pool.query(
    `SELECT l.id, l.code, l.name FROM football_leagues l
       LEFT JOIN football_league_aliases a ON a.league_id = l.id
      WHERE lower(l.code) = $1 OR a.alias_normalized = $1 LIMIT 1`,
    [text.replace(/ /g, '')],
  );
  const league = leagues[0];
  if (!league) return empty(0);
  const from = new Date().toISOString();
  const [rows, count] = await Promise.all([
    pool.query(
      `SELECT id, home_name, away_name, to_char(kickoff_at AT TIME ZONE 'UTC', ${ISO}) AS kickoff_at, status,
              home_goals, away_goals
         FROM fixtures WHERE league_id = $1 AND status = 'scheduled' AND kickoff_at >= $2
        ORDER BY kickoff_at, id LIMIT $3 OFFSET $4`,
      [league.id, from, perPage, (page - 1) * perPage],
    ),
    pool.query(
      `SELECT count(*)::int AS total FROM fixtures WHERE league_id = $1 AND status = 'scheduled' AND kickoff_at >= $2`,
      [league.id, from],
    ),
  ]);
  const view = leagueView(league.code, league.name, locale);
  const total = count.rows[0].total as number;
  const last = Math.max(1, Math.ceil(total / perPage));
  return {
    user: { id: user.id },
    message: 'Matchs à venir.',
    data: {
      fixtures: rows.rows.map((row) => ({
        id: row.id,
        league: view,
        home: row.home_name,
        away: row.away_name,
        kickoff_at: row.kickoff_at,
        status: row.status,
        score:
          row.status === 'played' && row.home_goals !== null
            ? { home: row.home_goals, away: row.away_goals }
            : null,
      })),
      meta: { current_page: page, last_page: last, per_page: perPage, total, has_more: page < last },
    },
    errors: [],
  };
});

interface LegInput {
  pronostic_id: number;
  market: string;
  pick: string;
  odds: number;
}

const slipBody = {
  type: 'object',
  required: ['legs'],
  properties: {
    legs: {
      type: 'array',
      minItems: 1,
      maxItems: 20,
      items: {
        type: 'object',
        required: ['pronostic_id', 'market', 'pick', 'odds'],
        properties: {
          pronostic_id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 },
          market: { enum: ['1x2', 'double_chance', 'btts', 'over_under_2_5', 'exact_score'] },
          pick: { type: 'string', minLength: 1, maxLength: 12 },
          odds: { type: 'number', minimum: 1.01, maximum: 1000 },
        },
      },
    },
    stake: { type: 'integer', minimum: 100, maximum: 10_000_000 },
  },
};

/** The probabilities a stored result shows for a market (a full analysis shows every market). */
interface StoredResult {
  market?: string;
  probabilities?: Record<string, number> & {
    markets?: Record<string, { probabilities?: Record<string, number> }>;
  };
}

function probabilitiesOf(result: StoredResult, market: string): Record<string, number> | undefined {
  if (result.market === market) return result.probabilities;
  if (result.market !== 'full_analysis') return undefined;
  return market === '1x2' ? result.probabilities : result.probabilities?.markets?.[market]?.probabilities;
}

const significant = (value: number) => Number(value.toPrecision(6));
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

app.post('/api/user/slips/check', { schema: { body: slipBody } }, async (request) => {
  const user = await authenticate(request.headers.authorization);
  const locale = localeOf(request.headers['accept-language']);
  const body = request.body as { legs: LegInput[]; stake?: number };
  const { rows } = await pool.query(
    `SELECT p.id, p.fixture_id, p.result, m.matrix FROM pronostics p
       LEFT JOIN pronostic_matrices m ON m.pronostic_id = p.id
      WHERE p.user_id = $1 AND p.status = 'success' AND p.deleted_at IS NULL AND p.id = ANY($2::int[])`,
    [user.id, body.legs.map((leg) => leg.pronostic_id)],
  );
  const sources = new Map(rows.map((row) => [row.id as number, row]));
  const errors: Record<string, string[]> = {};
  type Judged = LegInput & { probability: number };
  const matches = new Map<string, { matrix: string | null; legs: Judged[] }>();
  body.legs.forEach((leg, index) => {
    const source = sources.get(leg.pronostic_id);
    const shown = source?.result ? probabilitiesOf(source.result, leg.market)?.[leg.pick] : undefined;
    if (typeof shown !== 'number') {
      errors[`legs.${index}.pick`] = ['Choix inconnu.'];
      return;
    }
    const key = source.fixture_id !== null ? `f${source.fixture_id}` : `p${source.id}`;
    const match = matches.get(key) ?? { matrix: source.matrix as string | null, legs: [] as Judged[] };
    match.legs.push({ ...leg, probability: shown });
    matches.set(key, match);
  });
  if (Object.keys(errors).length > 0) throw new Invalid(errors);
  const stake = body.stake ?? 1000;
  const figures = slipFigures(
    [...matches.values()].map((match) => {
      if (match.legs.length === 1) return match.legs[0]!.probability;
      const matrix = match.matrix === null ? undefined : decodeMatrix(match.matrix);
      if (!matrix) throw new Error('no matrix');
      return jointProbability(matrix, match.legs as unknown as Parameters<typeof jointProbability>[1]);
    }),
    body.legs.map((leg) => leg.odds),
    stake,
  );
  await pool.query(
    `INSERT INTO slip_checks_daily (day, checked) VALUES ((now() AT TIME ZONE 'UTC')::date, 1)
     ON CONFLICT (day) DO UPDATE SET checked = slip_checks_daily.checked + 1`,
  );
  const legs = [...matches.values()].flatMap((match) => match.legs);
  const texts = locale === 'en' ? en.slipTexts : fr.slipTexts;
  return {
    user: { id: user.id },
    message: texts.checked,
    data: {
      slip: {
        legs: legs.map((leg) => ({
          pronostic_id: leg.pronostic_id,
          market: leg.market,
          pick: leg.pick,
          probability: leg.probability,
          odds: leg.odds,
          implied_probability: significant(1 / leg.odds),
          edge: round(leg.probability * leg.odds - 1, 4),
        })),
        probability: significant(figures.probability),
        odds: round(figures.odds, 2),
        fair_odds: figures.probability > 0 ? round(1 / figures.probability, 2) : null,
        stake,
        expected_return: figures.expectedReturn,
        expected_gain: figures.expectedReturn - stake,
        verdict: figures.verdict,
        verdict_text: texts.verdict[figures.verdict](figures.expectedReturn, stake),
      },
    },
    errors: [],
  };
});

const address = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`listening ${address}\n`);
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
