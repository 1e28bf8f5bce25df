import { describe, expect, it } from 'vitest';
import {
  CUP_RATING_SETTINGS,
  marketSupremacy,
  type RatingMatch,
  rateCupMatches,
  ratesOf,
} from '../../src/engine/cup-rating.js';

const DAY = 86_400_000;
const match = (
  day: number,
  fields: Partial<RatingMatch> & Pick<RatingMatch, 'home' | 'away'>,
): RatingMatch => ({
  date: day * DAY,
  homeGroup: 'E0',
  awayGroup: 'E0',
  cup: false,
  neutral: false,
  homeGoals: null,
  awayGoals: null,
  market: null,
  forecast: false,
  ...fields,
});

describe('the one-scale cup rating', () => {
  it('reads rates whose difference is the expected goal difference, and inverts the market', () => {
    const [lambda, mu] = ratesOf(0.8, 2.6);
    expect(lambda - mu).toBeCloseTo(0.8, 10);
    expect(lambda * mu).toBeCloseTo(1.69, 10);
    expect(marketSupremacy([0.6, 0.25, 0.15], 2.6)).toBeGreaterThan(0.5);
    expect(marketSupremacy([0.3, 0.3, 0.4], 2.6)).toBeLessThan(0);
  });

  it('moves a whole league by its clubs’ European results: an unseen rival of a winner is rated higher', () => {
    const stream: RatingMatch[] = [];
    // Two leagues, each two clubs even at home; then league A's club beats league B's often.
    for (let day = 0; day < 40; day++) {
      stream.push(
        match(day * 2, {
          home: 'A1',
          away: 'A2',
          homeGroup: 'A',
          awayGroup: 'A',
          homeGoals: 1,
          awayGoals: 1,
        }),
      );
      stream.push(
        match(day * 2, {
          home: 'B1',
          away: 'B2',
          homeGroup: 'B',
          awayGroup: 'B',
          homeGoals: 1,
          awayGoals: 1,
        }),
      );
      stream.push(
        match(day * 2 + 1, {
          home: 'A1',
          away: 'B1',
          homeGroup: 'A',
          awayGroup: 'B',
          cup: true,
          homeGoals: 3,
          awayGoals: 0,
        }),
      );
    }
    // A2 and B2 never met anyone abroad: A2 is now the favourite on neutral ground.
    stream.push(
      match(100, {
        home: 'B2',
        away: 'A2',
        homeGroup: 'B',
        awayGroup: 'A',
        cup: true,
        neutral: true,
        forecast: true,
      }),
    );
    stream.push(
      match(100, { home: 'B2', away: 'A2', homeGroup: 'B', awayGroup: 'A', cup: true, forecast: true }),
    );
    const [neutral, atHome] = rateCupMatches(stream);
    expect(neutral!.supremacy).toBeLessThan(-0.3);
    expect(neutral!.probabilities[2]).toBeGreaterThan(neutral!.probabilities[0]);
    // Off neutral ground the cup's home term is added, nothing else changes.
    expect(atHome!.supremacy - neutral!.supremacy).toBeCloseTo(CUP_RATING_SETTINGS.homeCup, 10);
    expect(neutral!.homeBasis).toBe('league');
  });

  it('rates a club of a league the data lacks from its cup results, from a low prior, and says so', () => {
    const stream = [
      match(1, { home: 'E1', away: 'E2', homeGoals: 2, awayGoals: 0 }),
      match(2, {
        home: 'UKR:shakhtar',
        away: 'E1',
        homeGroup: 'country:UKR',
        awayGroup: 'E0',
        cup: true,
        homeGoals: 0,
        awayGoals: 0,
      }),
      match(3, { home: 'E2', away: 'UKR:shakhtar', awayGroup: 'country:UKR', cup: true, forecast: true }),
      match(3, { home: 'E2', away: 'UKR:dynamo', awayGroup: 'country:UKR', cup: true, forecast: true }),
    ];
    const [known, unseen] = rateCupMatches(stream);
    expect(known!.awayBasis).toBe('cups');
    expect(unseen!.awayBasis).toBe('new');
    // A new Ukrainian club starts from the country's offset: the low prior, moved by Shakhtar's draw.
    expect(unseen!.supremacy).toBeGreaterThan(CUP_RATING_SETTINGS.homeCup);
  });

  it('forecasts a match from the days before only: a result of the same day changes nothing', () => {
    const base = [
      match(1, { home: 'A1', away: 'A2', homeGoals: 1, awayGoals: 0 }),
      match(2, { home: 'A1', away: 'A2', cup: true, forecast: true }),
    ];
    const sameDay = [...base, match(2, { home: 'A2', away: 'A1', homeGoals: 5, awayGoals: 0 })];
    expect(rateCupMatches(sameDay)[0]!.probabilities).toEqual(rateCupMatches(base)[0]!.probabilities);
  });
});
