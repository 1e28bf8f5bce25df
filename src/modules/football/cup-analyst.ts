// European cups' analyses (issue 51, decision 0149): a fixture of the Champions, Europa or
// Conference League (`UCL`, `UEL`, `UECL`) is forecast by the one-scale cup rating
// (engine/cup-rating.ts) walked over every stored domestic result of the cups' countries and every
// stored cup result before the match day, not by one league's fit. The walk runs on the fit thread
// (it reads every result: too long for the event loop); the rows read are kept per day for a few
// minutes. Its score matrix is what the six pronostic types read. A club whose league the data
// lacks is rated from its cup results alone, and the analysis says so.

import type { FootballLeague } from '../../db/schema/football.js';
import {
  CUP_RATING_SETTINGS,
  type FirstLeg,
  type RatingBasis,
  type RatingMatch,
  ratesOf,
  SECOND_LEG_SETTINGS,
  secondLegRates,
} from '../../engine/cup-rating.js';
import { recentForm } from '../../engine/form.js';
import { marketsFrom } from '../../engine/markets.js';
import { withSentence } from '../../engine/narration.js';
import type { Prediction } from '../../engine/predict.js';
import { type BuiltResult, buildResult, type MatchContext, narrationPhrases } from '../../engine/result.js';
import { type ScoreMatrix, scoreMatrix } from '../../engine/score-matrix.js';
import type { PlayedMatch } from '../../engine/types.js';
import type { Locale, PronosticTypeSlug } from '../../lib/allowed-values.js';
import { competitionName, competitionOf } from '../../lib/competitions.js';
import { DAY_MS, isoDay } from '../../lib/time.js';
import { CupClubResolver, type ResolvedClub, UEFA_COUNTRY_LEAGUES } from './cup-clubs.js';
import { pastMarketOf } from './evaluation-data.js';
import type { LeagueFitter } from './fit-pool.js';
import type { StoredRatingMatch } from './repository.js';
import { marketOddsOf } from './results-csv.js';

const CUP_CODES = ['UCL', 'UEL', 'UECL'];
/** The leagues the walk reads: the cups and every domestic league of the cups' countries. */
const RATING_LEAGUES = [...CUP_CODES, ...Object.values(UEFA_COUNTRY_LEAGUES).flat()];
const ROWS_TTL_MS = 5 * 60_000;
const DAYS_KEPT = 4;
/** Results a side's recent form is read from (the latest of the stream). */
const FORM_HISTORY = 5000;
/** A second leg's first leg is the reverse pairing's cup result within this many days before it. */
const FIRST_LEG_WITHIN_DAYS = 60;

/** Whether an analysis's competition is a European cup (the catalogue's `kind: "cup"`). */
export function isCupAnalysis(leagueCode: string | undefined): boolean {
  return leagueCode !== undefined && competitionOf(leagueCode)?.kind === 'cup';
}

interface Walk {
  at: number;
  stream: RatingMatch[];
  resolve: (name: string) => ResolvedClub;
  matches: Map<string, number>;
  history: PlayedMatch[];
  latestCup: string | null;
}

/** The stored results as the rating's stream: cup clubs resolved to their domestic names. */
export function ratingStream(rows: readonly StoredRatingMatch[]): Omit<Walk, 'at'> {
  const clubsByLeague = new Map<string, Set<string>>();
  const countryOf = new Map<string, string>();
  const countries = Object.entries(UEFA_COUNTRY_LEAGUES);
  for (const row of rows) {
    if (CUP_CODES.includes(row.league)) continue;
    const clubs = clubsByLeague.get(row.league) ?? new Set<string>();
    clubs.add(row.homeName).add(row.awayName);
    clubsByLeague.set(row.league, clubs);
    const country = countries.find(([, codes]) => codes.includes(row.league))?.[0];
    if (country) countryOf.set(row.homeName, country).set(row.awayName, country);
  }
  const resolver = new CupClubResolver(clubsByLeague);
  const resolved = new Map<string, ResolvedClub>();
  // A stored cup result keeps the club's name, not its country: a domestic club's own name is its
  // country's; any other name is looked for in each country's clubs, else it is a cup-only club.
  const resolve = (name: string): ResolvedClub => {
    let club = resolved.get(name);
    if (club) return club;
    const own = countryOf.get(name);
    if (own) club = resolver.resolve(name, own);
    for (const [country] of countries) {
      if (club?.domestic) break;
      const found = resolver.resolve(name, country);
      if (found.domestic) club = found;
    }
    if (!club?.domestic) club = resolver.resolve(name, null);
    resolved.set(name, club);
    return club;
  };
  const stream: RatingMatch[] = [];
  const matches = new Map<string, number>();
  let latestCup: string | null = null;
  for (const row of rows) {
    const cup = CUP_CODES.includes(row.league);
    const home = cup ? resolve(row.homeName) : { key: row.homeName, group: row.league };
    const away = cup ? resolve(row.awayName) : { key: row.awayName, group: row.league };
    const market = cup ? null : (pastMarketOf(marketOddsOf(row.odds))?.oneXTwo ?? null);
    stream.push({
      date: Date.parse(`${row.playedOn}T00:00:00Z`),
      home: home.key,
      away: away.key,
      homeGroup: home.group,
      awayGroup: away.group,
      cup,
      neutral: row.neutral,
      homeGoals: row.homeGoals,
      awayGoals: row.awayGoals,
      market: market ? [market[0], market[1], market[2]] : null,
      forecast: false,
    });
    matches.set(home.key, (matches.get(home.key) ?? 0) + 1);
    matches.set(away.key, (matches.get(away.key) ?? 0) + 1);
    if (cup) latestCup = row.playedOn.slice(0, 10);
  }
  const history = stream.slice(-FORM_HISTORY).map((match) => ({
    date: match.date,
    home: match.home,
    away: match.away,
    homeGoals: match.homeGoals!,
    awayGoals: match.awayGoals!,
  }));
  return { stream, resolve, matches, history, latestCup };
}

export interface CupForecastOfMatch {
  prediction: Prediction;
  context: MatchContext;
  /** Which sides are rated from cup results alone (their league is not in the data). */
  cupsOnly: { home: boolean; away: boolean };
  /** A second leg's first-leg score (this match's sides), when the stored results hold it. */
  firstLeg: FirstLeg | null;
}

/**
 * The first leg of a second leg played on `asOf`: the latest stored cup result of the reverse
 * pairing within FIRST_LEG_WITHIN_DAYS before it, as this match's home and away goals.
 */
export function firstLegOf(
  stream: readonly RatingMatch[],
  home: string,
  away: string,
  asOf: number,
): FirstLeg | null {
  for (let index = stream.length - 1; index >= 0; index--) {
    const match = stream[index]!;
    if (match.date >= asOf) continue;
    if (match.date < asOf - FIRST_LEG_WITHIN_DAYS * DAY_MS) break;
    if (!match.cup || match.home !== away || match.away !== home) continue;
    if (match.homeGoals === null || match.awayGoals === null) continue;
    return { homeGoals: match.awayGoals, awayGoals: match.homeGoals };
  }
  return null;
}

export function createCupForecaster(deps: {
  football: { ratingMatches(leagueCodes: readonly string[], before: string): Promise<StoredRatingMatch[]> };
  fitter: Pick<LeagueFitter, 'rateCups'>;
  now(): number;
}) {
  const walks = new Map<number, Walk>();

  async function walkTo(asOf: number): Promise<Walk> {
    const known = walks.get(asOf);
    const now = deps.now();
    if (known && now - known.at < ROWS_TTL_MS && now >= known.at) return known;
    const rows = await deps.football.ratingMatches(RATING_LEAGUES, isoDay(asOf));
    const walk = { at: now, ...ratingStream(rows) };
    walks.delete(asOf);
    walks.set(asOf, walk);
    while (walks.size > DAYS_KEPT) walks.delete(walks.keys().next().value as number);
    return walk;
  }

  const api = {
    /**
     * The forecast of `home` v `away` (stored team names) on the day `asOf` (00:00 UTC); `neutral`
     * (the fixture's, or the client's boolean) takes the home term away.
     */
    async match(
      match: { home: string; away: string; neutral: boolean; leg?: 1 | 2 | null },
      names: { home: string; away: string; league: string | null },
      asOf: number,
    ): Promise<CupForecastOfMatch> {
      const walk = await walkTo(asOf);
      const home = walk.resolve(match.home);
      const away = walk.resolve(match.away);
      const fixture: RatingMatch = {
        date: asOf,
        home: home.key,
        away: away.key,
        homeGroup: home.group,
        awayGroup: away.group,
        cup: true,
        neutral: match.neutral,
        homeGoals: null,
        awayGoals: null,
        market: null,
        forecast: true,
      };
      const [forecast] = await deps.fitter.rateCups([...walk.stream, fixture]);
      if (!forecast) throw new Error('the cup rating returned no forecast');
      // A second leg: the first leg moved the ratings already (a result like any other); the state
      // term (the side behind attacks) applies as far as SECOND_LEG_SETTINGS says (decision 0161).
      const firstLeg = match.leg === 2 ? firstLegOf(walk.stream, home.key, away.key, asOf) : null;
      const [lambda, mu] = firstLeg
        ? secondLegRates(forecast.supremacy, firstLeg, SECOND_LEG_SETTINGS, CUP_RATING_SETTINGS.evenGoals)
        : ratesOf(forecast.supremacy, CUP_RATING_SETTINGS.evenGoals);
      const matrix = firstLeg ? scoreMatrix(lambda, mu, CUP_RATING_SETTINGS.rho) : forecast.matrix;
      const side = (key: string, basis: RatingBasis, name: string) => {
        const known = basis !== 'new';
        return {
          name,
          known,
          matches: known ? (walk.matches.get(key) ?? 0) : 0,
          form: known ? recentForm(walk.history, key, asOf) : null,
        };
      };
      const prediction: Prediction = {
        matrix,
        markets: marketsFrom(matrix),
        known: { home: forecast.homeBasis !== 'new', away: forecast.awayBasis !== 'new' },
        // The match's own rates on the log scale, as a league's ratings are read by the LLM's facts.
        ratings: {
          home: {
            attack: Math.log(lambda),
            defence: -Math.log(mu),
            matches: walk.matches.get(home.key) ?? 0,
          },
          away: {
            attack: Math.log(mu),
            defence: -Math.log(lambda),
            matches: walk.matches.get(away.key) ?? 0,
          },
        },
        stakes: { home: null, away: null },
        odds: 'none',
      };
      const context: MatchContext = {
        home: side(home.key, forecast.homeBasis, names.home),
        away: side(away.key, forecast.awayBasis, names.away),
        league: { name: names.league, known: walk.latestCup !== null },
      };
      return {
        prediction,
        context,
        cupsOnly: { home: forecast.homeBasis === 'cups', away: forecast.awayBasis === 'cups' },
        firstLeg,
      };
    },

    /**
     * The result of one pronostic type for a cup match (the teams as resolved, or the names as
     * written), cup-only clubs said so; `neutral` is the client's or the fixture's boolean.
     */
    async analysis(
      type: PronosticTypeSlug,
      league: FootballLeague,
      sides: {
        homeTeam?: { name: string } | undefined;
        awayTeam?: { name: string } | undefined;
        homeName: string;
        awayName: string;
        neutral: unknown;
        /** `teams_details.leg` (a fixture's): 2 for a second leg, whose first leg is then read. */
        leg?: unknown;
      },
      { asOf, locale }: { asOf: number; locale: Locale },
    ): Promise<{ built: BuiltResult; matrix: ScoreMatrix }> {
      const names = {
        home: sides.homeName,
        away: sides.awayName,
        league: competitionName(league.code, locale, league.name),
      };
      const match = {
        home: sides.homeTeam?.name ?? sides.homeName,
        away: sides.awayTeam?.name ?? sides.awayName,
        neutral: sides.neutral === true,
        leg: sides.leg === 2 ? (2 as const) : null,
      };
      const { prediction, context, cupsOnly, firstLeg } = await api.match(match, names, asOf);
      const built = withFirstLeg(
        withCupsOnly(buildResult(type, prediction, context, locale), cupsOnly, context, locale),
        firstLeg,
        context,
        locale,
      );
      return { built, matrix: prediction.matrix };
    },
  };
  return api;
}

/**
 * A cup club rated from its cup results alone (its league not in the data) is said so: the text's
 * caveat, `data_quality.cups_only` naming the side(s), the level `low` (decision 0149).
 */
export function withCupsOnly(
  built: BuiltResult,
  cupsOnly: CupForecastOfMatch['cupsOnly'],
  context: MatchContext,
  locale: Locale,
): BuiltResult {
  const sides = (['home', 'away'] as const).filter((side) => cupsOnly[side]);
  if (sides.length === 0) return built;
  const phrases = narrationPhrases(locale);
  let analysis = built.result.analysis;
  for (const side of sides)
    analysis = withSentence(analysis, phrases.caveats.cupsOnly(context[side].name), phrases);
  const quality = { ...built.result.data_quality, level: 'low' as const, cups_only: sides };
  return {
    result: { ...built.result, analysis, data_quality: quality },
    facts: { ...built.facts, dataQuality: { ...built.facts.dataQuality, level: 'low' } },
  };
}

/**
 * A second leg says where the tie stands after the first leg and what the model does with it: the
 * text's sentence (who must win by how much), `data_quality.first_leg` with this match's sides'
 * first-leg goals (decision 0161).
 */
export function withFirstLeg(
  built: BuiltResult,
  firstLeg: FirstLeg | null,
  context: MatchContext,
  locale: Locale,
): BuiltResult {
  if (!firstLeg) return built;
  const phrases = narrationPhrases(locale);
  const sentence = phrases.caveats.firstLeg(
    context.home.name,
    context.away.name,
    firstLeg.homeGoals,
    firstLeg.awayGoals,
    SECOND_LEG_SETTINGS.openGoals !== 0 || SECOND_LEG_SETTINGS.chase !== 0,
  );
  const quality = {
    ...built.result.data_quality,
    first_leg: { home: firstLeg.homeGoals, away: firstLeg.awayGoals },
  };
  return {
    result: {
      ...built.result,
      analysis: withSentence(built.result.analysis, sentence, phrases),
      data_quality: quality,
    },
    facts: built.facts,
  };
}
