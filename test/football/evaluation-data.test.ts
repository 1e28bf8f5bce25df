// A past match's odds as the engine learns from them (`pastMarketOf`: the one reading, for result
// files and stored matches) beside the yardstick the evaluation scores against (`bookmaker`), which
// keeps its proportional margin removal so outside comparisons do not move.
import { describe, expect, it } from 'vitest';
import { impliedProbabilities } from '../../src/engine/evaluation.js';
import { marginFree } from '../../src/engine/margin.js';
import { pastMarketOf, toEvaluationMatch } from '../../src/modules/football/evaluation-data.js';
import type { OddsGroup } from '../../src/modules/football/odds-columns.js';
import { marketOddsOf, oddsColumns, parseResultsCsv } from '../../src/modules/football/results-csv.js';

const NO_ODDS: OddsGroup = {
  pinnacle: null,
  average: null,
  overUnderPinnacle: null,
  overUnderAverage: null,
  asianHandicap: null,
};

describe('a past match’s market', () => {
  it('takes closing before pre-match and Pinnacle before the average, margins removed by the power method', () => {
    const market = {
      prematch: { ...NO_ODDS, pinnacle: [1.6, 4.0, 6.0] as [number, number, number] },
      closing: {
        ...NO_ODDS,
        pinnacle: [1.5, 4.2, 7.0] as [number, number, number],
        average: [1.45, 4.1, 6.8] as [number, number, number],
        overUnderAverage: [1.8, 2.05] as [number, number],
      },
    };
    const view = pastMarketOf(market)!;
    expect(view.oneXTwo).toEqual(marginFree([1.5, 4.2, 7.0]));
    expect(view.overUnder).toEqual(marginFree([1.8, 2.05]));
    // The power method leaves the favourite more than proportional normalising does.
    const proportional = impliedProbabilities([1.5, 4.2, 7.0]);
    expect(view.oneXTwo![0]).toBeGreaterThan(proportional[0]! + 0.001);
    expect(view.oneXTwo![2]).toBeLessThan(proportional[2]! - 0.001);
    // The pre-match price beside the closing one: how the market moved.
    expect(view.prematchOneXTwo).toEqual(marginFree([1.6, 4.0, 6.0]));
    expect(view.asianHandicap).toBeNull();
  });

  it('falls back to pre-match, with no pre-match 1X2 beside it, and is null without any 1X2', () => {
    const view = pastMarketOf({
      prematch: { ...NO_ODDS, average: [2.1, 3.3, 3.5] },
      closing: { ...NO_ODDS, overUnderPinnacle: [1.9, 2.0] },
    })!;
    expect(view.oneXTwo).toEqual(marginFree([2.1, 3.3, 3.5]));
    expect(view.overUnder).toEqual(marginFree([1.9, 2.0]));
    expect(view.prematchOneXTwo).toBeNull();
    expect(
      pastMarketOf({ prematch: NO_ODDS, closing: { ...NO_ODDS, overUnderAverage: [1.9, 1.9] } }),
    ).toBeNull();
  });

  it('reads the Asian handicap closing before pre-match, Pinnacle before the average, as the home side’s chance to cover', () => {
    const oneXTwo: [number, number, number] = [2.0, 3.4, 3.8];
    const pre = {
      line: -0.25,
      pinnacle: [1.9, 2.0] as [number, number],
      average: [1.88, 1.96] as [number, number],
    };
    const close = { line: -0.5, pinnacle: null, average: [2.1, 1.78] as [number, number] };
    const both = pastMarketOf({
      prematch: { ...NO_ODDS, asianHandicap: pre },
      closing: { ...NO_ODDS, pinnacle: oneXTwo, asianHandicap: close },
    })!;
    expect(both.asianHandicap).toEqual({ line: -0.5, home: marginFree([2.1, 1.78])[0] });
    const preOnly = pastMarketOf({
      prematch: { ...NO_ODDS, asianHandicap: pre },
      closing: { ...NO_ODDS, pinnacle: oneXTwo },
    })!;
    expect(preOnly.asianHandicap).toEqual({ line: -0.25, home: marginFree([1.9, 2.0])[0] });
  });

  it('reads a stored match the same as its file row', () => {
    const csv = [
      'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,PSH,PSD,PSA,PSCH,PSCD,PSCA,AvgC>2.5,AvgC<2.5,AHCh,PCAHH,PCAHA',
      'E0,09/08/2019,Liverpool,Norwich,4,1,1.16,8.5,17,1.14,9.5,21,1.3,3.6,-2.25,1.94,1.98',
    ].join('\n');
    const [row] = parseResultsCsv(csv).rows;
    const fromFile = pastMarketOf(row!.market);
    expect(fromFile?.asianHandicap?.line).toBe(-2.25);
    expect(pastMarketOf(marketOddsOf(oddsColumns(row!.market)))).toEqual(fromFile);
  });
});

describe('an evaluation match', () => {
  it('scores against Pinnacle closing normalised proportionally, while the rating learns the power-method view', () => {
    const csv = [
      'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,PSH,PSD,PSA,PSCH,PSCD,PSCA,PC>2.5,PC<2.5',
      'E0,09/08/2019,Liverpool,Norwich,4,1,1.16,8.5,17,1.14,9.5,21,1.3,3.6',
    ].join('\n');
    const match = toEvaluationMatch(parseResultsCsv(csv).rows[0]!);
    expect(match.bookmaker).toEqual(impliedProbabilities([1.14, 9.5, 21]));
    expect(match.bookmakerOverUnder).toEqual(impliedProbabilities([1.3, 3.6]));
    expect(match.market?.oneXTwo).toEqual(marginFree([1.14, 9.5, 21]));
    expect(match.market?.oneXTwo).not.toEqual(match.bookmaker);
    expect(match.prematchOdds).toEqual({ collected_at: '2019-08-09', pinnacle: [1.16, 8.5, 17] });
    expect(match.season).toBe('2019-20');
  });
});
