// A European cup's analysis (issue 51, decision 0149) is answered by the one-scale cup rating walked
// over the stored domestic and cup results before the match day, for every pronostic type: it is
// not the league engine's answer, a neutral venue has no home term, and a club rated from its cup
// results alone (its league not in the data) is said so in data_quality and in both languages; a
// second leg names its first leg's score and what the tie asks of each side.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { rateCupMatches } from '../../src/engine/cup-rating.js';
import { decodeMatrix, encodeMatrix } from '../../src/engine/score-matrix.js';
import { pronosticTypeSlugs } from '../../src/lib/allowed-values.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createAnalyst } from '../../src/modules/football/analyst.js';
import { ratingStream } from '../../src/modules/football/cup-analyst.js';
import { tierOfGroup } from '../../src/modules/football/cup-clubs.js';
import { inlineFitter, threadFitter } from '../../src/modules/football/fit-pool.js';
import { createFootballService, type FootballService } from '../../src/modules/football/service.js';
import { createNarrator } from '../../src/providers/ai/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers.js';

const silent = { warn() {}, info() {}, error() {}, debug() {}, child: () => silent } as never;
const clock = new ManualClock('2015-03-01T12:00:00Z');
const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
let database: TestDatabase;
let football: FootballService;

/** A league's season from August, a double round robin: the first club wins at home, the rest draw. */
function leagueCsv(code: string, clubs: string[], year: number): string {
  const lines = ['Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,FTR'];
  let day = Date.UTC(year, 7, 9);
  for (let round = 0; round < 2; round++) {
    for (const home of clubs) {
      for (const away of clubs) {
        if (home === away) continue;
        const d = new Date(day);
        const [h, a] = home === clubs[0] ? [2, 0] : [1, 1];
        lines.push(
          `${code},${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()},${home},${away},${h},${a},${h > a ? 'H' : 'D'}`,
        );
        day += 3 * 86_400_000;
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A Champions League autumn: the Spanish clubs beat the English ones 3-0, Shakhtar beats both 2-0. */
function cupTxt(): string {
  const out = ['= UEFA Champions League 2014/15', '', '» Group A'];
  let day = Date.UTC(2014, 8, 17);
  const line = (home: string, away: string, score: string) => {
    const d = new Date(day);
    out.push(
      `  ${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]}/${d.getUTCDate()} ${d.getUTCFullYear()}`,
    );
    out.push(`    20.45  ${home.padEnd(26)} v ${away.padEnd(26)} ${score}`);
    day += 7 * 86_400_000;
  };
  for (let i = 0; i < 3; i++) {
    line('Real Madrid (ESP)', 'Arsenal FC (ENG)', '3-0');
    line('Chelsea FC (ENG)', 'FC Barcelona (ESP)', '0-3');
    line('Shakhtar Donetsk (UKR)', 'Chelsea FC (ENG)', '2-0');
    line('FC Barcelona (ESP)', 'Shakhtar Donetsk (UKR)', '1-1');
  }
  return `${out.join('\n')}\n`;
}

const analyst = () =>
  createAnalyst({
    football,
    narrator: createNarrator(testConfig(), { logger: silent }),
    logger: silent,
    clock,
    fitter: inlineFitter(),
  });

const pHome = (outcome: { result: Record<string, unknown> }) =>
  (outcome.result as { probabilities: { home: number } }).probabilities.home;

beforeAll(async () => {
  database = await createTestDatabase();
  football = createFootballService({ db: database.handle.db, config: testConfig() });
  for (const year of [2013, 2014]) {
    await football.importText(
      leagueCsv('E0', ['Arsenal', 'Chelsea', 'Everton', 'Stoke'], year),
      `E0-${year}.csv`,
    );
    await football.importText(
      leagueCsv('SP1', ['Real Madrid', 'Barcelona', 'Sevilla', 'Getafe'], year),
      `SP1-${year}.csv`,
    );
  }
  const cups = await football.importCupText(cupTxt(), 'cl.txt');
  expect(cups.inserted).toBe(12);
});
afterAll(() => database.drop());

describe('European cup analysis', () => {
  it('answers every pronostic type from the cup rating over the stored results before the match day', async () => {
    const details = { home: 'Arsenal', away: 'Real Madrid', league: 'UCL', date: '2015-03-10' };
    // The cup rating walked here over the same stored rows, the fixture forecast last.
    const rows = await football.ratingMatches(['UCL', 'E0', 'SP1'], '2015-03-10');
    const walk = ratingStream(rows);
    const [expected] = rateCupMatches(
      [
        ...walk.stream,
        {
          date: Date.UTC(2015, 2, 10),
          home: 'Arsenal',
          away: 'Real Madrid',
          homeGroup: 'E0',
          awayGroup: 'SP1',
          cup: true,
          neutral: false,
          homeGoals: null,
          awayGoals: null,
          market: null,
          forecast: true,
        },
      ],
      undefined,
      tierOfGroup,
    );
    for (const type of pronosticTypeSlugs) {
      const outcome = await analyst().analyse(details, type);
      expect(outcome.scoreMatrix).toBe(encodeMatrix(expected!.matrix));
      expect(decodeMatrix(outcome.scoreMatrix!)).not.toBeNull();
      const quality = (outcome.result as { data_quality: Record<string, unknown> }).data_quality;
      expect(quality.cups_only).toBeUndefined();
      expect(quality.home_matches).toBeGreaterThan(20);
    }
    // The cups put La Liga above the Premier League: Real Madrid is favoured at Arsenal's. The league
    // engine (the same match named in the Premier League) answers otherwise.
    const cup = await analyst().analyse(details, '1x2');
    const league = await analyst().analyse({ ...details, league: 'E0' }, '1x2');
    expect(pHome(cup)).toBeLessThan(0.35);
    expect(league.scoreMatrix).not.toBe(cup.scoreMatrix);
    expect(Math.abs(pHome(league) - pHome(cup))).toBeGreaterThan(0.03);
  });

  it('has no home term at a neutral venue (a final)', async () => {
    const details = {
      home: 'Barcelona',
      away: 'Real Madrid',
      league: 'Champions League',
      date: '2015-03-10',
    };
    const atHome = await analyst().analyse(details, '1x2');
    const neutral = await analyst().analyse({ ...details, neutral: true }, '1x2');
    expect(pHome(neutral)).toBeLessThan(pHome(atHome) - 0.05);
  });

  it('says when a club is rated from its cup results alone, in French and in English', async () => {
    const details = { home: 'Chelsea', away: 'Shakhtar Donetsk', league: 'UCL', date: '2015-03-10' };
    const french = await analyst().analyse(details, '1x2');
    const english = await analyst().analyse(details, '1x2', undefined, { locale: 'en' });
    for (const outcome of [french, english]) {
      const result = outcome.result as { data_quality: Record<string, unknown>; analysis: string };
      expect(result.data_quality).toMatchObject({ cups_only: ['away'], level: 'low' });
      expect(result.data_quality.away_matches).toBe(6);
    }
    expect((french.result as { analysis: string }).analysis).toContain(
      'Shakhtar Donetsk joue dans un championnat que nos données ne couvrent pas',
    );
    expect((english.result as { analysis: string }).analysis).toContain(
      'Shakhtar Donetsk plays in a league our data does not cover',
    );
    // A club of a covered league is not said so.
    const covered = await analyst().analyse({ ...details, away: 'Barcelona' }, '1x2');
    expect(
      (covered.result as { data_quality: Record<string, unknown> }).data_quality.cups_only,
    ).toBeUndefined();
  });
});

describe('a second leg (decision 0161)', () => {
  it('reads its first leg: the aggregate said in both languages, data_quality.first_leg, the forecast not shifted', async () => {
    const firstLeg = [
      '= UEFA Champions League 2014/15',
      '',
      '» Round of 16',
      '  Tue Feb/17 2015',
      '    20.45  Arsenal FC (ENG)           v Real Madrid (ESP)          0-2',
      '',
    ].join('\n');
    expect((await football.importCupText(firstLeg, 'cl-knockout.txt')).inserted).toBe(1);
    const details = { home: 'Real Madrid', away: 'Arsenal', league: 'UCL', date: '2015-03-10', leg: 2 };
    const french = await analyst().analyse(details, '1x2');
    const english = await analyst().analyse(details, '1x2', undefined, { locale: 'en' });
    for (const outcome of [french, english]) {
      const quality = (outcome.result as { data_quality: Record<string, unknown> }).data_quality;
      expect(quality.first_leg).toEqual({ home: 2, away: 0 });
    }
    expect((french.result as { analysis: string }).analysis).toContain(
      'Match aller : Arsenal 0-2 Real Madrid. Arsenal doit l’emporter par 3 buts d’écart pour se qualifier ; une victoire par 2 buts d’écart mène à la prolongation.',
    );
    expect((english.result as { analysis: string }).analysis).toContain(
      'First leg: Arsenal 0-2 Real Madrid. Arsenal must win by 3 goals to go through; a 2-goal win leads to extra time.',
    );
    // The first leg moved the ratings (a result like any other); the state term did not validate,
    // so the second leg's own forecast is the rating's, as without the leg.
    const unmarked = await analyst().analyse({ ...details, leg: undefined }, '1x2');
    expect(
      (unmarked.result as { data_quality: Record<string, unknown> }).data_quality.first_leg,
    ).toBeUndefined();
    expect(french.scoreMatrix).toBe(unmarked.scoreMatrix);
    // A first leg is the reverse pairing's: the same clubs the other way round are not a second leg.
    const reversed = await analyst().analyse({ ...details, home: 'Arsenal', away: 'Real Madrid' }, '1x2');
    expect(
      (reversed.result as { data_quality: Record<string, unknown> }).data_quality.first_leg,
    ).toBeUndefined();
  });
});

describe('the cup rating off the event loop', () => {
  it('the fit thread walks the stream and answers what the inline walk does', async () => {
    const rows = await football.ratingMatches(['UCL', 'E0', 'SP1'], '2015-03-10');
    const stream = ratingStream(rows).stream.map((match, index, all) => ({
      ...match,
      forecast: index >= all.length - 3,
    }));
    const thread = threadFitter();
    try {
      const [onThread, inline] = await Promise.all([
        thread.rateCups(stream),
        inlineFitter().rateCups(stream),
      ]);
      expect(onThread).toHaveLength(3);
      expect(onThread).toEqual(inline);
    } finally {
      await thread.close();
    }
  }, 60_000);
});
