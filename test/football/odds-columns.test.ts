import { describe, expect, it } from 'vitest';
import {
  CLOSING_COLUMN_NAMES,
  canonicalColumn,
  prematchOddsOf,
  readMarketOdds,
  readPrematchOdds,
} from '../../src/modules/football/odds-columns.js';
import { marketOddsOf, oddsColumns, parseResultsCsv } from '../../src/modules/football/results-csv.js';

function getter(row: Record<string, string>) {
  return (column: string) => row[column];
}

describe('odds columns', () => {
  it('reads the 2019-20 spelling into two groups that do not mix', () => {
    const odds = readMarketOdds(
      getter({
        PSH: '2.1',
        PSD: '3.4',
        PSA: '3.5',
        AvgH: '2.05',
        AvgD: '3.3',
        AvgA: '3.4',
        P_2_5: '1.9',
        P_2_5_1: '1.95',
        Avg_2_5: '1.85',
        Avg_2_5_1: '1.9',
        PSCH: '2.2',
        PSCD: '3.3',
        PSCA: '3.3',
        AvgCH: '2.15',
        AvgCD: '3.25',
        AvgCA: '3.2',
        PC_2_5: '2.0',
        PC_2_5_1: '1.85',
        AvgC_2_5: '1.95',
        AvgC_2_5_1: '1.8',
        AHh: '-0.25',
        PAHH: '1.95',
        PAHA: '1.97',
        AvgAHH: '1.9',
        AvgAHA: '1.94',
        AHCh: '-0.5',
        PCAHH: '2.02',
        PCAHA: '1.9',
        AvgCAHH: '1.98',
        AvgCAHA: '1.87',
      }),
    );
    expect(odds.prematch).toEqual({
      pinnacle: [2.1, 3.4, 3.5],
      average: [2.05, 3.3, 3.4],
      overUnderPinnacle: [1.9, 1.95],
      overUnderAverage: [1.85, 1.9],
      asianHandicap: { line: -0.25, pinnacle: [1.95, 1.97], average: [1.9, 1.94] },
    });
    expect(odds.closing).toEqual({
      pinnacle: [2.2, 3.3, 3.3],
      average: [2.15, 3.25, 3.2],
      overUnderPinnacle: [2.0, 1.85],
      overUnderAverage: [1.95, 1.8],
      asianHandicap: { line: -0.5, pinnacle: [2.02, 1.9], average: [1.98, 1.87] },
    });
  });

  it('reads the BetBrain Asian handicap (line and average, no Pinnacle) as pre-match, and a line only with its own prices', () => {
    const odds = readMarketOdds(
      getter({ BbAHh: '0.75', BbAvAHH: '2.0', BbAvAHA: '1.86', PCAHH: '1.9', PCAHA: '2.0' }),
    );
    expect(odds.prematch.asianHandicap).toEqual({ line: 0.75, pinnacle: null, average: [2.0, 1.86] });
    // Closing prices without their line say nothing.
    expect(odds.closing.asianHandicap).toBeNull();
    // The 2019-20 line does not borrow BetBrain's prices, nor a line of another era.
    const mixed = readPrematchOdds(getter({ AHh: '-1', BbAvAHH: '1.9', BbAvAHA: '1.95' }));
    expect(mixed.asianHandicap).toBeNull();
    // A line that is no quarter goal, or prices at 1, count as absent.
    expect(readPrematchOdds(getter({ AHh: '-0.3', PAHH: '1.9', PAHA: '1.9' })).asianHandicap).toBeNull();
    expect(readPrematchOdds(getter({ AHh: '0', PAHH: '1', PAHA: '1.9' })).asianHandicap).toBeNull();
  });

  it('counts the closing Asian handicap columns as closing', () => {
    for (const column of ['AHCh', 'PCAHH', 'PCAHA', 'AvgCAHH', 'AvgCAHA']) {
      expect(CLOSING_COLUMN_NAMES).toContain(column);
    }
    for (const column of ['AHh', 'PAHH', 'AvgAHH', 'BbAHh', 'BbAvAHH']) {
      expect(CLOSING_COLUMN_NAMES).not.toContain(column);
    }
  });

  it('maps the older BetBrain averages to pre-match, and never fills one group from the other', () => {
    const odds = readMarketOdds(
      getter({
        BbAvH: '1.5',
        BbAvD: '4.0',
        BbAvA: '6.5',
        BbAv_2_5: '1.7',
        BbAv_2_5_1: '2.1',
        PSCH: '1.45',
        PSCD: '4.2',
        PSCA: '7.0',
      }),
    );
    expect(odds.prematch.average).toEqual([1.5, 4.0, 6.5]);
    expect(odds.prematch.overUnderAverage).toEqual([1.7, 2.1]);
    expect(odds.prematch.pinnacle).toBeNull();
    expect(odds.closing.pinnacle).toEqual([1.45, 4.2, 7.0]);
    expect(odds.closing.average).toBeNull();
    expect(odds.closing.overUnderAverage).toBeNull();
  });

  it('counts a half-filled or unreadable set as absent', () => {
    const odds = readPrematchOdds(
      getter({
        PSH: '2.1',
        PSD: '',
        PSA: '3.5',
        AvgH: 'x',
        AvgD: '3',
        AvgA: '3',
        P_2_5: '1.0',
        P_2_5_1: '2',
      }),
    );
    expect(odds).toEqual({
      pinnacle: null,
      average: null,
      overUnderPinnacle: null,
      overUnderAverage: null,
      asianHandicap: null,
    });
  });

  it('the pre-match reader never opens a closing column', () => {
    const opened: string[] = [];
    readPrematchOdds((column) => {
      opened.push(column);
      return '2.0';
    });
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.filter((column) => CLOSING_COLUMN_NAMES.includes(column))).toEqual([]);
  });

  it('names the over/under columns one way', () => {
    expect(canonicalColumn('PC>2.5')).toBe('PC_2_5');
    expect(canonicalColumn('BbAv<2.5 ')).toBe('BbAv_2_5_1');
  });

  it('a result row keeps both groups, with the old header spelling', () => {
    const csv = [
      'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,BbAvH,BbAvD,BbAvA,BbAv>2.5,BbAv<2.5,PSCH,PSCD,PSCA',
      'E0,10/08/2018,Man United,Leicester,2,1,1.6,4.0,5.5,1.8,2.0,1.55,4.1,6.2',
    ].join('\n');
    const [row] = parseResultsCsv(csv).rows;
    expect(row?.market.prematch.average).toEqual([1.6, 4.0, 5.5]);
    expect(row?.market.prematch.overUnderAverage).toEqual([1.8, 2.0]);
    expect(row?.market.closing.pinnacle).toEqual([1.55, 4.1, 6.2]);
    expect(row?.market.closing.overUnderAverage).toBeNull();
  });

  it('a result row keeps both Asian handicaps, and stores and reads them back column by column', () => {
    const csv = [
      'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,AHh,PAHH,PAHA,AvgAHH,AvgAHA,AHCh,PCAHH,PCAHA,AvgCAHH,AvgCAHA',
      'E0,09/08/2019,Liverpool,Norwich,4,1,-2.25,1.97,1.95,1.94,1.94,-2.25,1.94,1.98,1.9,1.99',
    ].join('\n');
    const [row] = parseResultsCsv(csv).rows;
    expect(row?.market.prematch.asianHandicap).toEqual({
      line: -2.25,
      pinnacle: [1.97, 1.95],
      average: [1.94, 1.94],
    });
    expect(row?.market.closing.asianHandicap).toEqual({
      line: -2.25,
      pinnacle: [1.94, 1.98],
      average: [1.9, 1.99],
    });
    const columns = oddsColumns(row!.market);
    expect(columns).toMatchObject({
      preAhLine: -2.25,
      prePinnacleAhHome: 1.97,
      preAverageAhAway: 1.94,
      closeAhLine: -2.25,
      closePinnacleAhAway: 1.98,
      closeAverageAhHome: 1.9,
    });
    expect(marketOddsOf(columns)).toEqual(row!.market);
    // A line without any price is no handicap.
    expect(
      marketOddsOf({ ...columns, closePinnacleAhHome: null, closeAverageAhHome: null }).closing.asianHandicap,
    ).toBeNull();
  });
});

describe('pre-match odds as the engine takes them', () => {
  it('keeps the complete sets of a group, and nothing when none is', () => {
    const group = readPrematchOdds(
      getter({
        PSH: '2.1',
        PSD: '3.4',
        PSA: '3.5',
        AvgH: '2',
        AvgD: '',
        AvgA: '3',
        P_2_5: '1.9',
        P_2_5_1: '1.95',
      }),
    );
    expect(prematchOddsOf(group, '2024-11-14T09:00:00Z')).toEqual({
      collected_at: '2024-11-14T09:00:00Z',
      pinnacle: [2.1, 3.4, 3.5],
      ou_pinnacle: [1.9, 1.95],
    });
    expect(prematchOddsOf(readPrematchOdds(getter({ AHh: '0', PAHH: '1.9', PAHA: '1.9' })), 'x')).toBeNull();
  });
});
