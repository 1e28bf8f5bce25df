import { describe, expect, it } from 'vitest';
import { cupCsvDate, parseCupCsv } from '../../src/modules/football/cup-csv.js';
import {
  centralEuropeanKickoff,
  cupCodeOf,
  parseFootballTxt,
  parseScoreBlock,
} from '../../src/modules/football/football-txt.js';

// The shape of openfootball's cl.txt: CRLF, a title, comments, groups, a blank kick-off time,
// the year written only when it changes, a two-legged round, extra time, a scheduled final.
const SEASON = [
  '= UEFA Champions League 2019/20',
  '',
  '# Date       Tue Sep/17 2019 - Sun Aug/23 2020 (341d)',
  '',
  '» Group A',
  '  Wed Sep/18 2019',
  '    18.55  Club Brugge KV (BEL)    v Galatasaray (TUR)        0-0',
  '    21.00  Paris Saint-Germain (FRA) v Real Madrid (ESP)        3-0 (2-0)',
  '           Real Madrid (ESP)       v Club Brugge KV (BEL)     2-2 (0-2)',
  '',
  '» Round of 16',
  '  Tue Feb/18 2020',
  '    21.00  Atlético Madrid (ESP)   v Liverpool FC (ENG)       1-0 (1-0)',
  '  Wed Mar/11',
  '    21.00  Liverpool FC (ENG)      v Atlético Madrid (ESP)    2-3 a.e.t. (1-0, 1-0)',
  '',
  '» Final',
  '  Sun Aug/23',
  '    21.00  Paris Saint-Germain (FRA) v Bayern München (GER)',
  '',
].join('\r\n');

describe('Football.TXT season files', () => {
  const season = parseFootballTxt(SEASON);

  it('reads the title, the competition code and the season', () => {
    expect(season).toMatchObject({
      title: 'UEFA Champions League 2019/20',
      competition: 'UCL',
      season: '2019-20',
    });
    expect(season.skipped).toEqual([]);
    expect(season.matches).toHaveLength(6);
  });

  it('names the stage and the group, keeps a blank kick-off as the line above and carries the year', () => {
    expect(season.matches[0]).toMatchObject({
      stage: 'Group A',
      group: 'A',
      knockout: false,
      leg: null,
      date: '2019-09-18',
      kickoff: '18:55',
      home: 'Club Brugge KV',
      homeCountry: 'BEL',
      away: 'Galatasaray',
      awayCountry: 'TUR',
      score: { home: 0, away: 0 },
      halfTime: null,
    });
    expect(season.matches[2]).toMatchObject({
      kickoff: '21:00',
      home: 'Real Madrid',
      halfTime: { home: 0, away: 2 },
    });
    expect(season.matches[4]).toMatchObject({ date: '2020-03-11', stage: 'Round of 16' });
  });

  it('keeps the 90-minute score apart from extra time, and marks the two legs of a tie', () => {
    const [first, second] = [season.matches[3]!, season.matches[4]!];
    expect(first).toMatchObject({ knockout: true, leg: 1, extraTime: null });
    expect(second).toMatchObject({
      leg: 2,
      score: { home: 1, away: 0 },
      halfTime: { home: 1, away: 0 },
      extraTime: { home: 2, away: 3 },
      penalties: null,
    });
  });

  it('reads a match without a score as scheduled', () => {
    expect(season.matches[5]).toMatchObject({
      stage: 'Final',
      leg: null,
      date: '2020-08-23',
      home: 'Paris Saint-Germain',
      away: 'Bayern München',
      score: null,
      extraTime: null,
    });
  });

  it('reads shoot-outs in either order, the score between the clubs, a venue, and names the other cups', () => {
    expect(parseScoreBlock('1-1 a.e.t. (1-1, 0-1), 4-3 pen.')).toEqual({
      score: { home: 1, away: 1 },
      halfTime: { home: 0, away: 1 },
      extraTime: { home: 1, away: 1 },
      penalties: { home: 4, away: 3 },
    });
    expect(parseScoreBlock('4-3 pen. 1-1 a.e.t. (1-1, 0-1)')?.penalties).toEqual({ home: 4, away: 3 });
    expect(parseScoreBlock('-')).toBeNull();
    const final = parseFootballTxt(
      [
        '= UEFA Europa League 2021/22',
        '» Final',
        '  [Wed May/18 2022]',
        '    21.00  Eintracht Frankfurt (GER)  1-1 a.e.t. (1-1, 0-0), 5-4 pen.  Rangers FC (SCO)  @ Sevilla',
        '    21.00  Schalke 04 v 1. FC Köln  2-1',
      ].join('\n'),
    );
    expect(final.competition).toBe('UEL');
    expect(final.matches[0]).toMatchObject({
      home: 'Eintracht Frankfurt',
      away: 'Rangers FC',
      score: { home: 1, away: 1 },
      penalties: { home: 5, away: 4 },
    });
    expect(final.matches[1]).toMatchObject({
      home: 'Schalke 04',
      away: '1. FC Köln',
      score: { home: 2, away: 1 },
    });
    expect(cupCodeOf('UEFA Europa Conference League 2021/22')).toBe('UECL');
  });

  it('reports lines it cannot read instead of throwing', () => {
    const bad = parseFootballTxt(
      [
        '= UEFA Champions League 2019/20',
        '  Real Madrid v Ajax 2-1',
        '  Tue Sep/17 2019',
        '  Ajax v Chelsea 9-9 abd.',
      ].join('\n'),
    );
    expect(bad.matches).toEqual([]);
    expect(bad.skipped.map((entry) => entry.line)).toEqual([2, 4]);
  });

  it('reads kick-offs as Central European time, summer and winter', () => {
    expect(centralEuropeanKickoff('2019-09-18', '21:00').toISOString()).toBe('2019-09-18T19:00:00.000Z');
    expect(centralEuropeanKickoff('2019-12-11', '21:00').toISOString()).toBe('2019-12-11T20:00:00.000Z');
    expect(centralEuropeanKickoff('2019-12-11', null).toISOString()).toBe('2019-12-11T00:00:00.000Z');
  });
});

describe("footballcsv's cup season files", () => {
  const CSV = [
    'Stage,Round,Group,Date,Team 1,FT,HT,Team 2,∑FT,ET,P,Comments',
    'Qualifying,Qual. Round 1 | Leg 2,,(Wed) 23 Jul 2003 (W29),KF Tirana › ALB (2),3-0 (*),0-0,Dinamo Tbilisi › GEO (2),3-3 (agg.),3-0 (a.e.t.),4-2 (pen.),',
    'Group,Matchday ?,A,(Tue) 16 Sep 2003 (W38),Real Madrid CF › ESP (1),4-2,1-1,Olympique Marseille › FRA (1),,,,',
    'Knockout,Final,,(Wed) 26 May 2004 (W22),FC Porto › POR (13),3-0,1-0,AS Monaco › FRA (13),,,,',
    ',,,,,,,,,,,',
  ].join('\r\n');

  it('reads stage, group, legs, the 90-minute score, extra time and the shoot-out', () => {
    const season = parseCupCsv(CSV, { competition: 'UCL' });
    expect(season).toMatchObject({ competition: 'UCL', season: '2003-04', skipped: [] });
    expect(season.matches).toHaveLength(3);
    expect(season.matches[0]).toMatchObject({
      stage: 'Qual. Round 1',
      knockout: true,
      leg: 2,
      date: '2003-07-23',
      home: 'KF Tirana',
      homeCountry: 'ALB',
      away: 'Dinamo Tbilisi',
      score: { home: 3, away: 0 },
      extraTime: { home: 3, away: 0 },
      penalties: { home: 4, away: 2 },
    });
    expect(season.matches[1]).toMatchObject({ stage: 'Group A', group: 'A', knockout: false, leg: null });
    expect(season.matches[2]).toMatchObject({ stage: 'Final', leg: null, extraTime: null, penalties: null });
    expect(cupCsvDate('(Tue) 30 Jun 2015 (W26)')).toBe('2015-06-30');
  });
});
