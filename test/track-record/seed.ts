// Seeding for the track-record tests: results through the football service's import (the one path
// that stores results), users and `success` pronostics written straight into the tables with the
// result shape the engine builds (market, pick, confidence, probabilities).
import { sql } from 'drizzle-orm';
import type { PronosticTypeSlug } from '../../src/engine/types.js';
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
