import { describe, expect, it } from 'vitest';
import { FORECASTS_HEADER, forecastDate, forecastsCsv } from '../../src/modules/football/forecasts-csv.js';

const line = {
  date: '2019-08-03',
  competition: 'E1',
  homeTeam: "Nott'm Forest",
  awayTeam: 'West Brom',
  pHome: 0.4,
  pDraw: 0.27,
  pAway: 1 / 3,
};

describe('forecastsCsv', () => {
  it('writes the header and one line per forecast, six decimals, names as given', () => {
    expect(
      forecastsCsv([
        line,
        { ...line, homeTeam: 'Atl. Madrid', competition: 'BRA', pHome: 1, pDraw: 0, pAway: 0 },
      ]),
    ).toBe(
      `${FORECASTS_HEADER}\n` +
        "2019-08-03,E1,Nott'm Forest,West Brom,0.400000,0.270000,0.333333\n" +
        '2019-08-03,BRA,Atl. Madrid,West Brom,1.000000,0.000000,0.000000\n',
    );
    expect(FORECASTS_HEADER).toBe('date,competition,home_team,away_team,p_home,p_draw,p_away');
  });

  it('quotes a name only where CSV needs it', () => {
    const text = forecastsCsv([{ ...line, homeTeam: 'Sporting, Lisbon', awayTeam: 'The "Saints"' }]);
    expect(text.split('\n')[1]).toBe(
      '2019-08-03,E1,"Sporting, Lisbon","The ""Saints""",0.400000,0.270000,0.333333',
    );
  });

  it('writes only the header when there is nothing to forecast', () => {
    expect(forecastsCsv([])).toBe(`${FORECASTS_HEADER}\n`);
  });

  it('refuses a date that is not YYYY-MM-DD and a figure that is not a probability', () => {
    expect(() => forecastsCsv([{ ...line, date: '03/08/2019' }])).toThrow(/YYYY-MM-DD/);
    expect(() => forecastsCsv([{ ...line, pDraw: Number.NaN }])).toThrow(/p_draw/);
    expect(() => forecastsCsv([{ ...line, pAway: 1.2 }])).toThrow(/p_away/);
  });

  it('dates a match day from its epoch milliseconds in UTC', () => {
    expect(forecastDate(Date.UTC(2020, 1, 29))).toBe('2020-02-29');
    expect(forecastDate(Date.UTC(2020, 1, 29, 23, 59))).toBe('2020-02-29');
  });
});
