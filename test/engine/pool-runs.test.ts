// The validation's runs split by folds or leagues read as one (`fit-market.ts pool`): each match
// once, the ratio of summed RPS to Pinnacle's closing RPS pooled, by group and by league.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type MatchLosses, poolRuns } from '../../scripts/engine/paired.js';

const dir = mkdtempSync(join(tmpdir(), 'pool-runs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const DAY = 86_400_000;
function losses(league: string, day: number, engine: number, book: number): MatchLosses {
  return {
    key: `${league}|${day}|Home ${day}|Away ${day}`,
    league,
    date: day * DAY,
    engine,
    book,
    naive: 0.25,
    fit: engine,
    pre: null,
    ouEngine: null,
    ouBook: null,
  };
}

function file(name: string, matches: MatchLosses[]): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(matches));
  return path;
}

describe('pooling runs', () => {
  it('reads each match once, and gives the ratio pooled, by group and by league', () => {
    const first = Array.from({ length: 40 }, (_, i) => losses('E1', i, 0.202, 0.2));
    const second = [
      ...Array.from({ length: 40 }, (_, i) => losses('BRA', 100 + i, 0.204, 0.2)),
      // Also in the first run: counted once.
      first[0]!,
    ];
    const lines = poolRuns(
      [file('a.json', first), file('b.json', second)],
      [
        ['other main divisions', ['E1']],
        ['extra leagues', ['BRA']],
        ['nothing scored', ['XX']],
      ],
    );
    expect(lines[0]).toContain('2 runs, 80 matches');
    const figureOf = (label: string) => {
      const line = lines.find((entry) => entry.trimStart().startsWith(label));
      expect(line, label).toBeDefined();
      return Number(line!.trim().slice(label.length).trim().split(' ')[0]);
    };
    expect(figureOf('pooled')).toBeCloseTo(1.015, 6);
    expect(figureOf('other main divisions')).toBeCloseTo(1.01, 6);
    expect(figureOf('extra leagues')).toBeCloseTo(1.02, 6);
    expect(figureOf('BRA')).toBeCloseTo(1.02, 6);
    expect(figureOf('E1')).toBeCloseTo(1.01, 6);
    // A group without a match scored is left out.
    expect(lines.some((line) => line.includes('nothing scored'))).toBe(false);
    // Each line carries its interval and its matches.
    expect(lines.find((line) => line.trimStart().startsWith('E1'))).toMatch(/\(\d\.\d{4}–\d\.\d{4}\)\s+40$/);
  });
});
