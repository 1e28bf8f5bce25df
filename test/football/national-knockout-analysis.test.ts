// A knockout match of a finals tournament (decision 0159) is analysed with the knockout's own draw
// term: level after 90 minutes is likelier when extra time follows. The production analyst learns
// the stored results under their tournament's code, infers the edition's stage as the validation
// does, and reads it on the fixture's day: the same pairing, with nothing learnt in between, has a
// higher 90-minute draw in the edition's knockout days than in a later edition's first match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { decodeMatrix } from '../../src/engine/score-matrix.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createAnalyst } from '../../src/modules/football/analyst.js';
import { inlineFitter } from '../../src/modules/football/fit-pool.js';
import { createFootballService, type FootballService } from '../../src/modules/football/service.js';
import { createNarrator } from '../../src/providers/ai/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers.js';

const silent = { warn() {}, info() {}, error() {}, debug() {}, child: () => silent } as never;
const clock = new ManualClock('2026-01-20T12:00:00Z');
let database: TestDatabase;
let football: FootballService;

/** A year of friendlies, then an Africa Cup of Nations group of three played in full. */
function results(): string {
  const sides = ['Cameroon', 'Nigeria', 'Ghana'];
  const lines = ['date,home_team,away_team,home_score,away_score,tournament,city,country,neutral'];
  for (let i = 0; i < 24; i++) {
    const day = new Date(Date.parse('2025-12-01T00:00:00Z') - i * 14 * 86_400_000).toISOString().slice(0, 10);
    lines.push(`${day},${sides[i % 3]},${sides[(i + 1) % 3]},${i % 3},1,Friendly,City,X,FALSE`);
  }
  lines.push('2026-01-10,Cameroon,Nigeria,1,1,African Cup of Nations,Yaoundé,Cameroon,TRUE');
  lines.push('2026-01-14,Nigeria,Ghana,2,1,African Cup of Nations,Douala,Cameroon,TRUE');
  lines.push('2026-01-18,Ghana,Cameroon,0,1,African Cup of Nations,Garoua,Cameroon,TRUE');
  return lines.join('\n');
}

const drawOf = async (date: string) => {
  const outcome = await createAnalyst({
    football,
    narrator: createNarrator(testConfig(), { logger: silent }),
    logger: silent,
    clock,
    fitter: inlineFitter(),
  }).analyse({ home: 'Cameroon', away: 'Nigeria', league: 'INT-AFCON', date, neutral: true }, '1x2');
  const matrix = decodeMatrix(outcome.scoreMatrix!)!;
  let draw = 0;
  for (let x = 0; x < matrix.size; x++) draw += matrix.p[x * matrix.size + x]!;
  return draw;
};

beforeAll(async () => {
  database = await createTestDatabase();
  football = createFootballService({ db: database.handle.db, config: testConfig() });
  await football.importText(results(), 'results.csv');
});
afterAll(() => database.drop());

describe('a finals knockout analysed by the production analyst', () => {
  it('reads the knockout draw term in the edition’s knockout days, not in a later edition', async () => {
    // Three days after the group's last match: the group is complete, the pair meets again.
    // (An analysis reads what is known the day after the clock's: the clock moves with the dates.)
    clock.set('2026-01-20T12:00:00Z');
    const knockout = await drawOf('2026-01-21');
    // Six weeks later nothing more is learnt, but it is another edition: no stage known.
    clock.set('2026-03-04T12:00:00Z');
    const later = await drawOf('2026-03-05');
    expect(later).toBeGreaterThan(0.15);
    expect(knockout).toBeGreaterThan(later + 0.01);
  });
});
