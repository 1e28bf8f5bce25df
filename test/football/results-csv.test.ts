import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/modules/football/csv.js';
import { currentSeason } from '../../src/modules/football/import.js';
import { parseResultsCsv, seasonFolder, seasonOf } from '../../src/modules/football/results-csv.js';

// Short-year dates, decimal counts, the mirror's `PC_2_5` spelling and a trailing empty row.
const OLD_STYLE = [
  'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,FTR,HTHG,HTAG,HTR,HS,AS,HST,AST,PSCH,PSCD,PSCA,BbAvH,BbAvD,BbAvA,BbAv_2_5,BbAv_2_5_1',
  'E0,16/08/14,Arsenal,Crystal Palace,2.0,1.0,H,1.0,1.0,D,14.0,4.0,6.0,2.0,1.29,5.9,12.75,1.25,5.96,12.43,1.72,2.1',
  'E0,16/08/14,Leicester,Everton,2.0,2.0,D,1.0,2.0,A,11.0,13.0,3.0,3.0,3.11,3.4,2.47,3.06,3.32,2.36,2.0,1.8',
  ',,,,,,,,,,,,,,,,,,,,,',
  '',
].join('\r\n');

// Four-digit years, integer counts, a Time column and the original `PC>2.5` spelling.
const NEW_STYLE = [
  'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR,HTHG,HTAG,HS,AS,HST,AST,PSCH,PSCD,PSCA,AvgH,AvgD,AvgA,PC>2.5,PC<2.5,Avg>2.5,Avg<2.5',
  'E0,09/08/2019,20:00,Liverpool,Norwich,4,1,H,4,0,15,12,7,5,1.14,10.43,19.63,1.14,8.75,19.83,1.34,3.44,1.41,2.92',
  'E0,10/08/2019,12:30,"West Ham",Man City,0,5,A,0,1,5,14,3,9,12.0,6.5,1.25,11.0,6.0,1.27,1.9,2.0,1.8,2.0',
].join('\n');

describe('football-data.co.uk CSV reader', () => {
  it('reads dd/mm/yy dates, decimal counts and the PC_2_5 spelling, and skips the empty trailing row', () => {
    const { rows, skipped } = parseResultsCsv(OLD_STYLE);
    expect(skipped).toEqual([]);
    expect(rows).toHaveLength(2);
    const first = rows[0]!;
    expect(first).toMatchObject({
      league: 'E0',
      season: '2014-15',
      date: '2014-08-16',
      homeTeam: 'Arsenal',
      awayTeam: 'Crystal Palace',
      homeGoals: 2,
      awayGoals: 1,
      halfTimeHomeGoals: 1,
      homeShots: 14,
      homeShotsOnTarget: 6,
      awayShotsOnTarget: 2,
      kickoff: null,
    });
    expect(first.odds.pinnacleClosing).toEqual([1.29, 5.9, 12.75]);
    expect(first.odds.overUnderAverage).toEqual([1.72, 2.1]);
    expect(first.odds.overUnderPinnacleClosing).toBeNull();
  });

  it('reads dd/mm/yyyy dates, a kick-off time, quoted names and the PC>2.5 spelling', () => {
    const { rows, skipped } = parseResultsCsv(NEW_STYLE);
    expect(skipped).toEqual([]);
    expect(rows.map((row) => [row.date, row.kickoff, row.homeTeam, row.season])).toEqual([
      ['2019-08-09', '20:00', 'Liverpool', '2019-20'],
      ['2019-08-10', '12:30', 'West Ham', '2019-20'],
    ]);
    expect(rows[0]!.odds.overUnderPinnacleClosing).toEqual([1.34, 3.44]);
    expect(rows[0]!.odds.average).toEqual([1.14, 8.75, 19.83]);
  });

  it('reports each bad row with its line and reason, and keeps the good ones', () => {
    const text = [
      'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG',
      'E0,31/02/2019,A,B,1,0',
      'E0,01/03/2019,A,,1,0',
      'E0,02/03/2019,A,B,x,0',
      'E0,03/03/2019,A,B,,',
      'E0,04/03/2019,A,a,1,1',
      'E0,05/03/2019,A,B,1.5,1',
      'E0,06/03/2019,A,B,3,2',
    ].join('\n');
    const { rows, skipped } = parseResultsCsv(text);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ line: 8, homeGoals: 3, awayGoals: 2 });
    expect(skipped.map((row) => row.line)).toEqual([2, 3, 4, 5, 6, 7]);
    expect(skipped[0]!.reason).toMatch(/unreadable date/);
    expect(skipped[1]!.reason).toMatch(/missing team/);
    expect(skipped[2]!.reason).toMatch(/unreadable score/);
    expect(skipped[3]!.reason).toMatch(/no score/);
    expect(skipped[4]!.reason).toMatch(/same team/);
  });

  it('refuses a file without the needed columns, with one clear reason', () => {
    expect(parseResultsCsv('a,b,c\n1,2,3\n')).toEqual({
      format: 'division',
      rows: [],
      skipped: [{ line: 1, reason: 'missing columns: Date, HomeTeam, AwayTeam, FTHG, FTAG' }],
    });
    expect(parseResultsCsv('').skipped[0]!.reason).toBe('empty file');
  });

  it('parses quoted fields with commas, doubled quotes and line breaks', () => {
    const records = parseCsv('a,"b, c","say ""hi"""\n"multi\nline",x,\n');
    expect(records).toEqual([
      { line: 1, fields: ['a', 'b, c', 'say "hi"'] },
      { line: 2, fields: ['multi\nline', 'x', ''] },
    ]);
  });

  it('names seasons and the download folder', () => {
    expect(seasonOf('2020-07-26')).toBe('2020-21');
    expect(seasonOf('2020-06-30')).toBe('2019-20');
    expect(seasonFolder('2025-26')).toBe('2526');
    expect(seasonFolder('1999-2000')).toBe('9900');
    expect(seasonFolder('2025-27')).toBeNull();
    expect(seasonFolder('nope')).toBeNull();
    expect(currentSeason(new Date('2025-07-20T00:00:00Z'))).toBe('2024-25');
    expect(currentSeason(new Date('2025-08-02T00:00:00Z'))).toBe('2025-26');
    expect(currentSeason(new Date('2026-03-01T00:00:00Z'))).toBe('2025-26');
  });
});
