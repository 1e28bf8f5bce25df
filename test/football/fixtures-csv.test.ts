import { describe, expect, it } from 'vitest';
import {
  FixturesFileError,
  parseFixturesCsv,
  ukLocalToUtc,
} from '../../src/modules/football/fixtures-csv.js';

describe('ukLocalToUtc', () => {
  it('reads winter times as GMT and summer times as BST, across both clock changes', () => {
    expect(ukLocalToUtc('28/03/2026', '15:00')).toBe('2026-03-28T15:00:00.000Z'); // GMT
    expect(ukLocalToUtc('29/03/2026', '15:00')).toBe('2026-03-29T14:00:00.000Z'); // BST from 01:00 UTC
    expect(ukLocalToUtc('24/10/2026', '20:00')).toBe('2026-10-24T19:00:00.000Z'); // BST
    expect(ukLocalToUtc('25/10/2026', '20:00')).toBe('2026-10-25T20:00:00.000Z'); // GMT again
  });

  it('reads the skipped spring hour with the offset before the change', () => {
    expect(ukLocalToUtc('29/03/2026', '01:30')).toBe('2026-03-29T01:30:00.000Z');
  });

  it('refuses an unreadable date or time', () => {
    expect(ukLocalToUtc('31/02/2026', '15:00')).toBeNull();
    expect(ukLocalToUtc('01/02/2026', '25:00')).toBeNull();
    expect(ukLocalToUtc('01/02/2026', '')).toBeNull();
  });
});

describe('parseFixturesCsv', () => {
  const header = 'Div,Date,Time,HomeTeam,AwayTeam,PSH,PSD,PSA,AvgH,AvgD,AvgA,P>2.5,P<2.5';
  it('keeps the named leagues, converts kick-offs and reads the pre-match odds', () => {
    const rows = parseFixturesCsv(
      [
        header,
        'E0,29/03/2026,15:00,Arsenal,Chelsea,2.1,3.4,3.6,2.05,3.3,3.5,1.9,1.95',
        'SP1,29/03/2026,20:00,Betis,Sevilla,,,,,,,,',
      ].join('\n'),
      ['E0'],
    );
    expect(rows).toEqual([
      {
        league: 'E0',
        home: 'Arsenal',
        away: 'Chelsea',
        kickoffAt: '2026-03-29T14:00:00.000Z',
        prematch: {
          pinnacle: [2.1, 3.4, 3.6],
          average: [2.05, 3.3, 3.5],
          overUnderPinnacle: [1.9, 1.95],
          overUnderAverage: null,
          asianHandicap: null,
        },
      },
    ]);
  });

  it('refuses the whole file for one unreadable row or a missing column', () => {
    expect(() =>
      parseFixturesCsv(
        [header, 'E0,29/03/2026,15:00,Arsenal,Chelsea', 'E0,bad,15:00,Leeds,Fulham'].join('\n'),
      ),
    ).toThrow(FixturesFileError);
    expect(() => parseFixturesCsv('Div,Date,HomeTeam,AwayTeam\nE0,29/03/2026,Arsenal,Chelsea')).toThrow(
      /Time/,
    );
    expect(() => parseFixturesCsv('')).toThrow(FixturesFileError);
  });
});
