// Seeding for the track-record tests: results through the football service's import (the one path
// that stores results), users and `success` pronostics written straight into the tables with the
// result shape the engine builds (market, pick, confidence, probabilities).
import { sql } from 'drizzle-orm';
import type { PronosticTypeSlug } from '../../src/lib/allowed-values.js';
import type { TestApp } from '../helpers.js';

export function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

export async function importCsv(t: TestApp, lines: string[]): Promise<number> {
  const text = ['Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR', ...lines].join('\n');
  const report = await t.app.services.football.importText(text, 'seed.csv');
  return report.inserted;
}

let phone = 0;
export async function seedUser(t: TestApp): Promise<number> {
  phone += 1;
  const code = `${process.pid}${phone}`;
  const [row] = rowsOf(
    await t.app.db.execute(sql`
      INSERT INTO users (phone, country, affiliation_code)
      VALUES (${`+2376${String(90000000 + phone * 7919 + (process.pid % 1000)).slice(-8)}`}, 'CM', ${`TR${code}`})
      RETURNING id`),
  );
  return Number(row!.id);
}

const MARKET: Record<PronosticTypeSlug, string> = {
  '1x2': '1x2',
  'double-chance': 'double_chance',
  btts: 'btts',
  'over-under-2-5': 'over_under_2_5',
  'exact-score': 'exact_score',
  'full-analysis': 'full_analysis',
};

export interface SeedPronostic {
  userId: number;
  slug: PronosticTypeSlug;
  details: Record<string, unknown>;
  pick: string;
  confidence: number;
  probabilities?: Record<string, unknown>;
  status?: 'success' | 'processing' | 'cancelled';
  createdAt?: string;
}

export async function seedPronostic(t: TestApp, seed: SeedPronostic): Promise<number> {
  const result = {
    market: MARKET[seed.slug],
    pick: seed.pick,
    confidence: seed.confidence,
    probabilities: seed.probabilities ?? { [seed.pick]: seed.confidence },
    analysis: 'Texte.',
  };
  const [row] = rowsOf(
    await t.app.db.execute(sql`
      INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, result, ai_model,
                              search_text, run_after, deadline_at, created_at)
      VALUES (${seed.userId}, (SELECT id FROM pronostic_types WHERE slug = ${seed.slug}),
              ${seed.status ?? 'success'}, 1, ${JSON.stringify(seed.details)}::jsonb,
              ${JSON.stringify(result)}::jsonb, 'dixon-coles-2', 'x', now(), now(),
              ${seed.createdAt ?? '2026-03-01T10:00:00Z'}::timestamptz)
      RETURNING id`),
  );
  await t.app.db.execute(sql`
    INSERT INTO pronostic_counters (user_id, live) VALUES (${seed.userId}, 1)
    ON CONFLICT (user_id) DO UPDATE SET live = pronostic_counters.live + 1`);
  return Number(row!.id);
}

export interface StoredSettlement {
  outcome: string | null;
  settledAt: string | null;
  settlement: { outcome: string; score: string | null; settled_at: string } | undefined;
  status: string;
}

export async function settlementOf(t: TestApp, id: number): Promise<StoredSettlement> {
  const [row] = rowsOf(
    await t.app.db.execute(sql`
      SELECT outcome, settled_at::text AS settled_at, status, result FROM pronostics WHERE id = ${id}`),
  );
  const result = (typeof row!.result === 'string' ? JSON.parse(row!.result) : row!.result) as Record<
    string,
    unknown
  >;
  return {
    outcome: (row!.outcome as string | null) ?? null,
    settledAt: (row!.settled_at as string | null) ?? null,
    settlement: result?.settlement as StoredSettlement['settlement'],
    status: String(row!.status),
  };
}

/** The seeded record (clock at 2026-03-10T12:00Z): results, then analyses of them by two owners. */
export const RECORD_NOW = '2026-03-10T12:00:00.000Z';

export const RECORD_MATCHES = [
  {
    key: 'm1',
    line: 'E0,01/03/2026,15:00,Arsenal,Chelsea,2,1,H',
    league: 'E0',
    day: '2026-03-01',
    home: 'Arsenal',
    away: 'Chelsea',
    score: [2, 1],
  },
  {
    key: 'm2',
    line: 'E0,20/02/2026,15:00,Liverpool,Everton,0,0,D',
    league: 'E0',
    day: '2026-02-20',
    home: 'Liverpool',
    away: 'Everton',
    score: [0, 0],
  },
  {
    key: 'm3',
    line: 'E0,20/12/2025,15:00,Man City,Arsenal,1,3,A',
    league: 'E0',
    day: '2025-12-20',
    home: 'Manchester City',
    away: 'Arsenal',
    score: [1, 3],
  },
  {
    key: 'm4',
    line: 'E0,01/06/2025,15:00,Chelsea,Liverpool,2,0,H',
    league: 'E0',
    day: '2025-06-01',
    home: 'Chelsea',
    away: 'Liverpool',
    score: [2, 0],
  },
  {
    key: 'm5',
    line: 'E0,01/01/2024,15:00,Everton,Man City,1,2,A',
    league: 'E0',
    day: '2024-01-01',
    home: 'Everton',
    away: 'Man City',
    score: [1, 2],
  },
  {
    key: 'm6',
    line: 'SP1,02/03/2026,20:00,Barcelona,Sevilla,3,1,H',
    league: 'SP1',
    day: '2026-03-02',
    home: 'Barcelona',
    away: 'Sevilla',
    score: [3, 1],
  },
  {
    key: 'm7',
    line: 'SP1,01/11/2025,20:00,Real Madrid,Valencia,1,1,D',
    league: 'SP1',
    day: '2025-11-01',
    home: 'Real Madrid',
    away: 'Valencia',
    score: [1, 1],
  },
] as const;

export interface RecordCase {
  owner: 0 | 1;
  slug: PronosticTypeSlug;
  match: (typeof RECORD_MATCHES)[number]['key'] | null;
  pick: string;
  confidence: number;
  probabilities?: { home: number; draw: number; away: number };
  outcome: 'won' | 'lost' | 'void';
}

export const RECORD_CASES: RecordCase[] = [
  {
    owner: 0,
    slug: '1x2',
    match: 'm1',
    pick: 'home',
    confidence: 0.5,
    probabilities: { home: 0.5, draw: 0.3, away: 0.2 },
    outcome: 'won',
  },
  {
    owner: 0,
    slug: '1x2',
    match: 'm2',
    pick: 'home',
    confidence: 0.45,
    probabilities: { home: 0.45, draw: 0.3, away: 0.25 },
    outcome: 'lost',
  },
  {
    owner: 1,
    slug: '1x2',
    match: 'm3',
    pick: 'away',
    confidence: 0.4,
    probabilities: { home: 0.3, draw: 0.3, away: 0.4 },
    outcome: 'won',
  },
  {
    owner: 0,
    slug: '1x2',
    match: 'm6',
    pick: 'home',
    confidence: 0.7,
    probabilities: { home: 0.7, draw: 0.2, away: 0.1 },
    outcome: 'won',
  },
  {
    owner: 0,
    slug: 'full-analysis',
    match: 'm7',
    pick: 'home',
    confidence: 0.55,
    probabilities: { home: 0.55, draw: 0.25, away: 0.2 },
    outcome: 'lost',
  },
  { owner: 0, slug: 'btts', match: 'm1', pick: 'yes', confidence: 0.6, outcome: 'won' },
  { owner: 0, slug: 'btts', match: 'm4', pick: 'yes', confidence: 0.58, outcome: 'lost' },
  { owner: 1, slug: 'over-under-2-5', match: 'm5', pick: 'over', confidence: 0.52, outcome: 'won' },
  { owner: 0, slug: 'exact-score', match: 'm2', pick: '1-1', confidence: 0.12, outcome: 'lost' },
  {
    owner: 0,
    slug: '1x2',
    match: null,
    pick: 'home',
    confidence: 0.5,
    probabilities: { home: 0.5, draw: 0.3, away: 0.2 },
    outcome: 'void',
  },
  { owner: 0, slug: 'double-chance', match: 'm6', pick: 'draw_away', confidence: 0.35, outcome: 'lost' },
];

/** Imports the matches, writes the cases for `owners` and settles them; returns the row ids. */
export async function seedRecord(t: TestApp, owners: [number, number]): Promise<number[]> {
  await importCsv(
    t,
    RECORD_MATCHES.map((m) => m.line),
  );
  const ids: number[] = [];
  for (const c of RECORD_CASES) {
    const match = RECORD_MATCHES.find((m) => m.key === c.match);
    const details = match
      ? { home: match.home, away: match.away, league: match.league, date: match.day }
      : { home: 'Coton Sport', away: 'Canon Yaoundé', date: '2026-02-01' };
    const probabilities =
      c.slug === 'exact-score'
        ? { '1-1': 0.12, '1-0': 0.11, '0-0': 0.1, '2-1': 0.09, '0-1': 0.08, other: 0.5 }
        : (c.probabilities ?? { [c.pick]: c.confidence });
    ids.push(
      await seedPronostic(t, {
        userId: owners[c.owner],
        slug: c.slug,
        details,
        pick: c.pick,
        confidence: c.confidence,
        probabilities,
      }),
    );
  }
  await t.app.services.trackRecord.settleDue();
  return ids;
}

/**
 * A priced season for the market calibration: `count` Serie A matches (two a day from 2026-01-02)
 * with Pinnacle's closing 1X2 odds, the favourite's margin-free probability spread from about 38 %
 * to 86 %, and the favourite winning on a fixed pattern; `unpriced` more matches without odds.
 * Each gets one settled 1X2 analysis by `owner` (on the favourite). Returns each priced match's
 * margin-free favourite probability and whether it won, as the test expects the bins to see them.
 */
export async function seedMarket(
  t: TestApp,
  owner: number,
  count: number,
  unpriced = 0,
): Promise<Array<{ probability: number; won: boolean }>> {
  const lines: string[] = [];
  const expected: Array<{ probability: number; won: boolean }> = [];
  const cases: Array<{ home: string; away: string; day: string }> = [];
  for (let i = 0; i < count + unpriced; i++) {
    const day = new Date(Date.UTC(2026, 0, 2 + Math.floor(i / 2)));
    const iso = day.toISOString().slice(0, 10);
    const dmy = `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
    const home = `Marche ${String(i).padStart(3, '0')} A`;
    const away = `Marche ${String(i).padStart(3, '0')} B`;
    // The favourite (home) gets 1/odds in proportion p : (1-p)/2 : (1-p)/2 with a 4 % margin.
    const p = 0.38 + (0.48 * (i % count)) / Math.max(1, count - 1);
    const shares = [p, (1 - p) / 2, (1 - p) / 2];
    const odds = shares.map((share) => Math.round((1 / (share * 1.04)) * 100) / 100);
    const favouriteWins = i % 3 !== 0 || p > 0.8;
    const [hg, ag] = favouriteWins ? [2, 0] : [0, 1];
    const priced = i < count;
    lines.push(
      [
        'I1',
        dmy,
        '18:00',
        home,
        away,
        hg,
        ag,
        favouriteWins ? 'H' : 'A',
        ...(priced ? odds.map(String) : ['', '', '']),
      ].join(','),
    );
    if (priced) {
      const inverse = odds.map((odd) => 1 / odd);
      const total = inverse.reduce((sum, value) => sum + value, 0);
      expected.push({ probability: inverse[0]! / total, won: favouriteWins });
    }
    cases.push({ home, away, day: iso });
  }
  const text = ['Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR,PSCH,PSCD,PSCA', ...lines].join('\n');
  await t.app.services.football.importText(text, 'market.csv');
  for (const c of cases) {
    await seedPronostic(t, {
      userId: owner,
      slug: '1x2',
      details: { home: c.home, away: c.away, league: 'I1', date: c.day },
      pick: 'home',
      confidence: 0.6,
      probabilities: { home: 0.6, draw: 0.25, away: 0.15 },
    });
  }
  await t.app.services.trackRecord.settleDue();
  return expected;
}
