// National teams' analyses (issue 52): a fixture of an international tournament (`INT-…`), or two
// national teams named without a competition, is forecast by the national-team model walked over
// every international result before the match day (about 45,000 rows, a fraction of a second),
// not by a league's fit. The walk is kept per day for a few minutes: results arrive once a day.
// Its score matrix is what the six pronostic types read, as a league's is. A knockout match's
// forecast is about the 90 minutes (the markets' rule), whatever extra time follows.
import { recentForm } from '../../engine/form.js';
import {
  type InternationalFixture,
  type InternationalModel,
  type InternationalResult,
  walkInternational,
} from '../../engine/international.js';
import { marketsFrom } from '../../engine/markets.js';
import type { Prediction } from '../../engine/predict.js';
import type { MatchContext } from '../../engine/result.js';
import type { PlayedMatch, TeamContext } from '../../engine/types.js';
import type { Locale } from '../../lib/allowed-values.js';
import { competitionOf } from '../../lib/competitions.js';
import { DAY_MS, isoDay } from '../../lib/time.js';
import { confederationOf, nationalTeamName, tournamentClassOf } from './international-csv.js';
import type { StoredInternationalMatch } from './repository.js';

/** As a league's (analyst.ts): the latest result older than this before the match is stale. */
const STALE_AFTER_DAYS = 120;
/** How long one day's walk is reused before the results are read again. */
const WALK_TTL_MS = 5 * 60_000;
const WALKS_KEPT = 8;

export interface NationalForecast {
  prediction: Prediction;
  home: Omit<TeamContext, 'name'>;
  away: Omit<TeamContext, 'name'>;
  /** The latest international result before the day (`yyyy-mm-dd`), or null. */
  latestResult: string | null;
}

/** Whether an analysis is a national teams' one: its competition is, or both sides are national teams. */
export function isNationalAnalysis(
  leagueCode: string | undefined,
  home: string | undefined,
  away: string | undefined,
): boolean {
  if (leagueCode) return competitionOf(leagueCode)?.kind === 'international';
  return (
    home !== undefined &&
    away !== undefined &&
    confederationOf(home) !== null &&
    confederationOf(away) !== null
  );
}

export function createNationalForecaster(deps: {
  internationalMatches(before: string): Promise<StoredInternationalMatch[]>;
  now(): number;
}) {
  const walks = new Map<
    number,
    { at: number; model: InternationalModel; history: PlayedMatch[]; latest: string | null }
  >();

  async function walkTo(asOf: number) {
    const known = walks.get(asOf);
    const now = deps.now();
    if (known && now - known.at < WALK_TTL_MS && now >= known.at) return known;
    const rows = await deps.internationalMatches(isoDay(asOf));
    const results: InternationalResult[] = rows.map((row) => ({
      date: Date.parse(`${row.playedOn}T00:00:00Z`),
      home: row.homeName,
      away: row.awayName,
      homeGoals: row.homeGoals,
      awayGoals: row.awayGoals,
      neutral: row.neutral,
      tournamentClass: tournamentClassOf(row.competition),
      ...editionOf(row.competition),
      homeConfederation: confederationOf(row.homeName),
      awayConfederation: confederationOf(row.awayName),
    }));
    const model = walkInternational(results, () => {});
    const history = results.slice(-2000).map((result) => ({
      date: result.date,
      home: result.home,
      away: result.away,
      homeGoals: result.homeGoals,
      awayGoals: result.awayGoals,
    }));
    const entry = { at: now, model, history, latest: rows.at(-1)?.playedOn.slice(0, 10) ?? null };
    walks.delete(asOf);
    walks.set(asOf, entry);
    while (walks.size > WALKS_KEPT) walks.delete(walks.keys().next().value as number);
    return entry;
  }

  const api = {
    /**
     * The forecast of `home` v `away` (stored team names) at `asOf` (a day's 00:00 UTC). Without a
     * word on the venue, a World Cup or continental final is taken as neutral, any other match as
     * played at the home side's.
     */
    async forecast(
      home: string,
      away: string,
      { leagueCode, neutral, asOf }: { leagueCode: string | null; neutral: boolean | null; asOf: number },
    ): Promise<NationalForecast> {
      const { model, history, latest } = await walkTo(asOf);
      const tournamentClass = leagueCode ? tournamentClassOf(leagueCode) : 'friendly';
      const fixture: InternationalFixture = {
        home,
        away,
        neutral: neutral ?? (tournamentClass === 'world-cup' || tournamentClass === 'continental-final'),
        tournamentClass,
        ...(leagueCode ? editionOf(leagueCode) : {}),
        homeConfederation: confederationOf(home),
        awayConfederation: confederationOf(away),
      };
      const forecast = model.forecast(fixture, asOf);
      const side = (team: string, known: boolean) => ({
        known,
        matches: model.matchesOf(team),
        form: known ? recentForm(history, team, asOf) : null,
      });
      return {
        prediction: {
          matrix: forecast.matrix,
          markets: marketsFrom(forecast.matrix),
          known: forecast.known,
          ratings: {
            home: model.ratingOf(home, fixture.homeConfederation),
            away: model.ratingOf(away, fixture.awayConfederation),
          },
          stakes: { home: null, away: null },
          odds: 'none',
        },
        home: side(home, forecast.known.home),
        away: side(away, forecast.known.away),
        latestResult: latest,
      };
    },

    /**
     * The prediction and the analysis text's view of a match (the `neutral` a client sent, if a
     * boolean). The sides are named in the analysis's language from the one table (decision 0160):
     * "Cameroun" in French, "Cameroon" in English, whatever text the pronostic named them by.
     */
    async match(
      match: { home: string; away: string; leagueCode: string | null },
      words: { league: string | null; locale: Locale },
      neutral: unknown,
      asOf: number,
    ): Promise<{ prediction: Prediction; context: MatchContext }> {
      const forecast = await api.forecast(match.home, match.away, {
        leagueCode: match.leagueCode,
        neutral: typeof neutral === 'boolean' ? neutral : null,
        asOf,
      });
      const context = nationalContext(
        forecast,
        nationalTeamName(match.home, words.locale),
        nationalTeamName(match.away, words.locale),
        words.league,
        asOf,
      );
      return { prediction: forecast.prediction, context };
    },
  };
  return api;
}

/** The analysis text's view of the match; stale when the latest international result is too old. */
export function nationalContext(
  forecast: NationalForecast,
  homeName: string,
  awayName: string,
  leagueName: string | null,
  asOf: number,
  staleAfterDays = STALE_AFTER_DAYS,
): MatchContext {
  const context: MatchContext = {
    home: { name: homeName, ...forecast.home },
    away: { name: awayName, ...forecast.away },
    league: { name: leagueName, known: forecast.latestResult !== null },
  };
  const latest = forecast.latestResult;
  if (latest === null || Date.parse(`${latest}T00:00:00Z`) < asOf - staleAfterDays * DAY_MS) {
    context.league.stale = { latestResult: latest };
  }
  return context;
}

/**
 * The tournament whose editions' stages the model infers (decision 0159), as the validation reads
 * the file's names: a World Cup or continental finals code is one tournament; the `other` class
 * gathers many tournaments under a code, so no stage is inferred there.
 */
function editionOf(code: string): { tournament?: string } {
  const tournamentClass = tournamentClassOf(code);
  return tournamentClass === 'world-cup' || tournamentClass === 'continental-final'
    ? { tournament: code }
    : {};
}
