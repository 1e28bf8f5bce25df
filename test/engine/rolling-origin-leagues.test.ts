// The rolling origin over every league (issue 50): a division's results-only seasons and an extra
// league's country file are read beside the season files, and a calendar-year league's fold
// (`2011`, from 1 January) reads nothing dated from its start, even where a July-to-June season
// of another league runs past it (the pools are trained on forecasts by date, not by label).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NEUTRAL_MARKET_SETTINGS } from '../../scripts/engine/neutral.js';
import { runFold } from '../../scripts/engine/pools.js';
import { RECORDED_GOALS, type RecordedFit } from '../../scripts/engine/record-fit.js';
import { fitKey, type ProtocolData, type ProtocolOptions } from '../../scripts/engine/rolling-origin.js';
import { leagueMatches, seasonStart } from '../../scripts/engine/seasons.js';
import type { EvaluationMatch } from '../../src/engine/evaluation.js';
import { dayOf } from '../../src/engine/model.js';
import { seededRandom } from '../../src/engine/random.js';
import { scoreMatrix } from '../../src/engine/score-matrix.js';

const DAY = 86_400_000;
const TEAMS = ['Ajax', 'Benfica', 'Celtic', 'Dinamo', 'Everton', 'Fenerbahce'];

const poisson = (lambda: number, random: () => number) => {
  let k = 0;
  let p = Math.exp(-lambda);
  let sum = p;
  const u = random();
  while (u > sum && k < 12) {
    k++;
    p *= lambda / k;
    sum += p;
  }
  return k;
};

/**
 * A league of six sides, one double round-robin a season, three matches a week from each season's
 * start, priced by its true strengths, with the results-only fit's recorded forecasts; league XX
 * from `twist` on: other strengths, results, prices and forecasts.
 */
function league(
  code: string,
  seasons: { label: string; start: number }[],
  twist: number | null,
  recorded: Map<string, RecordedFit>,
): EvaluationMatch[] {
  const matches: EvaluationMatch[] = [];
  seasons.forEach(({ label, start }, s) => {
    let round = 0;
    for (const home of TEAMS)
      for (const away of TEAMS) {
        if (home === away) continue;
        const date = start + Math.floor(round++ / 3) * 7 * DAY + 15 * 3_600_000;
        const twisted = twist !== null && code === 'XX' && date >= twist;
        const random = seededRandom(code.charCodeAt(0) * 1000 + s * 50 + round + (twisted ? 7 : 0));
        const strength = (team: string) =>
          (twisted ? TEAMS.indexOf(team) - 2.5 : 2.5 - TEAMS.indexOf(team)) * 0.15;
        const lambda = Math.exp(0.5 + strength(home) - strength(away));
        const mu = Math.exp(0.3 + strength(away) - strength(home));
        const matrix = scoreMatrix(lambda, mu, -0.05);
        let h = 0;
        let d = 0;
        let over = 0;
        const cells: number[] = [];
        for (let x = 0; x <= 10; x++)
          for (let y = 0; y <= 10; y++) {
            const p = matrix.p[x * matrix.size + y]!;
            if (x > y) h += p;
            else if (x === y) d += p;
            if (x + y > 2) over += p;
            if (x <= RECORDED_GOALS && y <= RECORDED_GOALS) cells.push(p);
          }
        const book: [number, number, number] = [h, d, 1 - h - d];
        matches.push({
          league: code,
          season: label,
          date,
          home,
          away,
          homeGoals: poisson(lambda, random),
          awayGoals: poisson(mu, random),
          bookmaker: book,
          bookmakerOverUnder: [over, 1 - over],
          market: { oneXTwo: book, overUnder: [over, 1 - over] },
        });
        recorded.set(fitKey(code, dayOf(date), home, away), {
          league: code,
          date: dayOf(date),
          home,
          away,
          fit: [0.9 * h + 0.1 / 3, 0.9 * d + 0.1 / 3, 0.9 * (1 - h - d) + 0.1 / 3],
          over,
          goals: [lambda, mu],
          matrix: cells,
        });
      }
  });
  return matches;
}

/** A July-to-June league whose seasons run from November to mid-January, and a calendar-year one. */
function twoLeagues(twist: number | null): ProtocolData {
  const recorded = new Map<string, RecordedFit>();
  const years = [2008, 2009, 2010, 2011];
  const european = years.map((y) => ({
    label: `${y}-${String((y + 1) % 100).padStart(2, '0')}`,
    start: Date.UTC(y, 10, 1),
  }));
  const calendar = years.map((y) => ({ label: String(y + 1), start: Date.UTC(y + 1, 2, 1) }));
  return {
    leagues: new Map([
      ['XX', league('XX', european, twist, recorded)],
      ['YY', league('YY', calendar, twist, recorded)],
    ]),
    recorded,
  };
}

const OPTIONS: ProtocolOptions = {
  start: NEUTRAL_MARKET_SETTINGS,
  firstPredicted: '2008-09',
  rounds: 1,
  iterations: 20,
};

describe('the rolling origin over every league', () => {
  it('starts a calendar-year season on 1 January, a July-to-June one on 1 July', () => {
    expect(seasonStart('2011')).toBe(Date.UTC(2011, 0, 1));
    expect(seasonStart('2010-11')).toBe(Date.UTC(2010, 6, 1));
  });

  it("a calendar year's fold reads nothing dated from its start, though another league's season runs past it", () => {
    const from = seasonStart('2011');
    const clean = runFold(twoLeagues(null), OPTIONS, '2011');
    // The calendar league's 2011 matches are the fold's, and they were forecast.
    expect(clean.forecasts.none).toHaveLength(30);
    expect(clean.forecasts.none.every(({ row }) => row.league === 'YY' && row.season === '2011')).toBe(true);
    // XX's 2010-11 season runs into January 2011: twisting it from 1 January changes none of the fold.
    const data = twoLeagues(null);
    expect(data.leagues.get('XX')!.some((m) => m.season === '2010-11' && m.date >= from)).toBe(true);
    expect(runFold(twoLeagues(from), OPTIONS, '2011')).toEqual(clean);
    // The July-to-June fold 2010-11 is cut at 1 July 2010, and the twist does reach its own forecasts.
    const european = runFold(twoLeagues(null), OPTIONS, '2010-11');
    expect(european.forecasts.none.every(({ row }) => row.season === '2010-11')).toBe(true);
    expect(runFold(twoLeagues(from), OPTIONS, '2010-11').forecasts.none).not.toEqual(european.forecasts.none);
  });

  it("reads a division's results-only seasons and an extra league's country file cut to the seasons asked", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'league-matches-'));
    mkdirSync(join(dir, 'results-only'));
    mkdirSync(join(dir, 'extra'));
    writeFileSync(
      join(dir, 'SC1-2013-14.csv'),
      'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,PSCH,PSCD,PSCA\nSC1,10/08/2013,Alloa,Falkirk,1,0,2.5,3.2,2.9\n',
    );
    writeFileSync(
      join(dir, 'results-only', 'SC1-2014-15.csv'),
      'Date,Team 1,FT,HT,Team 2\nSat Aug 9 2014,Falkirk,2-2,1-0,Alloa\n',
    );
    writeFileSync(
      join(dir, 'extra', 'BRA.csv'),
      [
        '\ufeffCountry,League,Season,Date,Time,Home,Away,HG,AG,Res,PSCH,PSCD,PSCA',
        'Brazil,Serie A,2013,01/06/2013,20:00,Santos,Gremio,1,1,D,2.1,3.2,3.6',
        'Brazil,Serie A,2014,01/06/2014,20:00,Gremio,Santos,0,2,A,2.2,3.2,3.4',
        'Brazil,Serie A,2016,01/06/2016,20:00,Santos,Gremio,3,0,H,2.0,3.3,3.8',
      ].join('\r\n'),
    );
    const sc1 = await leagueMatches(dir, 'SC1', ['2013-14', '2014-15', '2015-16']);
    expect(sc1.map((m) => [m.season, m.home, m.bookmaker === null])).toEqual([
      ['2013-14', 'Alloa', false],
      ['2014-15', 'Falkirk', true],
    ]);
    // 2013-14 to 2014-15: July 2013 to June 2015, so the calendar years 2014 and 2015.
    const bra = await leagueMatches(dir, 'BRA', ['2013-14', '2014-15']);
    expect(bra.map((m) => [m.league, m.season, m.home])).toEqual([['BRA', '2014', 'Gremio']]);
    expect(await leagueMatches(dir, 'ARG', ['2013-14'])).toEqual([]);
  });
});
