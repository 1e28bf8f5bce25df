// The cups' forecasts from files: domestic result rows and cup matches (either cup format) made
// into one stream in date order for the one-scale rating (engine/cup-rating.ts), the cup clubs
// resolved to their domestic names first. Shared by `evaluate` and the validation script.
import {
  CUP_RATING_SETTINGS,
  type CupForecast,
  type CupRatingSettings,
  type Probabilities3,
  type RatingMatch,
  rateCupMatches,
} from '../../engine/cup-rating.js';
import { CupClubResolver, tierOfGroup } from './cup-clubs.js';
import type { FootballTxtMatch } from './football-txt.js';

/** A domestic league match as the rating reads it. */
export interface DomesticMatch {
  league: string;
  /** Epoch ms of the match day. */
  date: number;
  home: string;
  away: string;
  homeGoals: number;
  awayGoals: number;
  /** Margin-free 1X2 of the market once the match is history, if the file has odds. */
  market: Probabilities3 | null;
}

/** A cup match from a file, with its cup's code (`UCL`, `UEL`, `UECL`) and season. */
export interface CupMatch extends FootballTxtMatch {
  competition: string;
  season: string;
}

/** Single knockout matches (finals; 2019-20's last eight in Lisbon) are played on neutral ground. */
export function isNeutral(match: FootballTxtMatch): boolean {
  return match.knockout && match.leg === null;
}

const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`);

export interface CupForecastLine {
  match: CupMatch;
  forecast: CupForecast;
}

/**
 * Forecasts every cup match `forecast(match)` selects, walked forward: each from the ratings of
 * every domestic and cup result of earlier days. Cup matches without a score are forecast only.
 */
export function forecastCups(
  domestic: readonly DomesticMatch[],
  cups: readonly CupMatch[],
  forecast: (match: CupMatch) => boolean,
  settings: CupRatingSettings = CUP_RATING_SETTINGS,
): CupForecastLine[] {
  const clubsByLeague = new Map<string, Set<string>>();
  for (const match of domestic) {
    const clubs = clubsByLeague.get(match.league) ?? new Set<string>();
    clubs.add(match.home).add(match.away);
    clubsByLeague.set(match.league, clubs);
  }
  const resolver = new CupClubResolver(clubsByLeague);
  const stream: { match: RatingMatch; cup: CupMatch | null }[] = [];
  for (const match of domestic) {
    stream.push({
      match: {
        date: match.date,
        home: match.home,
        away: match.away,
        homeGroup: match.league,
        awayGroup: match.league,
        cup: false,
        neutral: false,
        homeGoals: match.homeGoals,
        awayGoals: match.awayGoals,
        market: match.market,
        forecast: false,
      },
      cup: null,
    });
  }
  for (const match of cups) {
    const home = resolver.resolve(match.home, match.homeCountry);
    const away = resolver.resolve(match.away, match.awayCountry);
    stream.push({
      match: {
        date: dayOf(match.date),
        home: home.key,
        away: away.key,
        homeGroup: home.group,
        awayGroup: away.group,
        cup: true,
        neutral: isNeutral(match),
        homeGoals: match.score?.home ?? null,
        awayGoals: match.score?.away ?? null,
        market: null,
        forecast: forecast(match),
      },
      cup: match,
    });
  }
  // Stable: within a day, files' order is kept (a day's matches never inform each other anyway).
  stream.sort((a, b) => a.match.date - b.match.date);
  const forecasts = rateCupMatches(
    stream.map((entry) => entry.match),
    settings,
    tierOfGroup,
  );
  return forecasts.map((entry) => ({ match: stream[entry.index]!.cup!, forecast: entry }));
}
