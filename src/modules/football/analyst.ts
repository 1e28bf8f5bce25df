// The analyst the worker calls: it finds the league and teams a pronostic names (any case, any
// accents, aliases), fits the league's ratings on the results before the match day (one fit per
// league and day, on a worker thread so the event loop never waits on it; refitted when that
// league's results change), builds the result of the requested type, and lets the configured
// narrator rewrite the text. Thin data is answered from priors, never refused; stale data is said.

import type { FastifyBaseLogger } from 'fastify';
import type { FootballLeague } from '../../db/schema/football.js';
import { type LinkedHistory, linkedDivisions } from '../../engine/divisions.js';
import { recentForm } from '../../engine/form.js';
import {
  DEFAULT_SETTINGS,
  dayOf,
  type FittedModel,
  globalModel,
  MODEL_NAME,
  modelFromRatings,
} from '../../engine/model.js';
import { withHistoryNote } from '../../engine/narration.js';
import { borrowRating, predictFixture } from '../../engine/predict.js';
import { type BuiltResult, buildResult, type MatchContext, narrationPhrases } from '../../engine/result.js';
import { encodeMatrix, type ScoreMatrix } from '../../engine/score-matrix.js';
import { seasonOfDate } from '../../engine/season.js';
import type { PlayedMatch } from '../../engine/types.js';
import type { Locale, PronosticTypeSlug } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { basisOf, competitionName, HISTORY_DAYS } from '../../lib/competitions.js';
import { DAY_MS, isoDay } from '../../lib/time.js';
import type { Narrator } from '../../providers/ai/types.js';
import type { AnalysisInput, AnalysisOutcome, Analyst } from '../../types/analyst.js';
import { createCupForecaster, isCupAnalysis } from './cup-analyst.js';
import { pastMarketOf, prematchOddsFrom } from './evaluation-data.js';
import type { LeagueFitter } from './fit-pool.js';
import { createNationalForecaster, isNationalAnalysis } from './national-analyst.js';
import { marketOddsOf } from './results-csv.js';
import type { FootballService } from './service.js';

/**
 * The worker's analysis engine (model name e.g. 'dixon-coles-7', or 'dixon-coles-7+gpt-4o-mini'
 * with the LLM); thin data is not a failure.
 */
export interface FootballAnalyst extends Analyst {
  /** Cheap facts for the start-up log, e.g. { matches: 0 } → a warning that no results are loaded. */
  describe(): Promise<{ matches: number; leagues: number }>;
  /** Stops the fit thread. */
  close(): Promise<void>;
}

export interface AnalystDeps {
  /** The results it fits on and the names it resolves. */
  football: Pick<
    FootballService,
    | 'resolveLeague'
    | 'resolveTeams'
    | 'latestLeagueOf'
    | 'playedMatches'
    | 'stats'
    | 'leagueVersion'
    | 'internationalMatches'
    | 'ratingMatches'
  >;
  logger: FastifyBaseLogger;
  clock: Clock;
  /** Writes the text (the statistical narration, or an LLM's rewrite of it). */
  narrator: Narrator;
  /** Where fits run: a worker thread in the service; inline in the CLI and in tests that count fits. */
  fitter: LeagueFitter;
}

/** How often the cache asks whether a league's results changed. */
const VERSION_CHECK_MS = 5_000;
/**
 * A league whose latest result is older than this before the match is stale: longer than a summer
 * break (about 80 days) or the spring 2020 pause (about 90), shorter than a lost season.
 */
export const STALE_AFTER_DAYS = 120;
/**
 * Fits kept (one per league and day): every competition of the catalogue (38) for today's
 * analyses, with room for dated ones; measured in docs/engine/data.md (issue 50).
 */
const CACHE_ENTRIES = 64;
/** Past matches prepared for a fit between two turns of the event loop. */
const PREPARE_SLICE = 250;
/** Dates before this are typos, not matches to analyse as of then. */
const EARLIEST_AS_OF = Date.UTC(1990, 0, 1);

interface FittedLeague {
  version: string;
  model: FittedModel;
  matches: PlayedMatch[];
  /** The league's latest result before the fit's day (`yyyy-mm-dd`), or null. */
  latestResult: string | null;
}

function teamKey(id: number): string {
  return `team:${id}`;
}

/** A name as the client wrote it, capitalised when typed all in lower case ("liverpool"). */
function displayName(value: unknown, fallback: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value.trim() === '') return fallback;
  const name = value.trim().replace(/\s+/g, ' ').slice(0, 100);
  return name === name.toLowerCase()
    ? name.replace(/(^|[\s-])(\p{L})/gu, (_, gap, letter) => gap + letter.toUpperCase())
    : name;
}

/**
 * The "as of" instant, always the start of a day: the fit uses results of earlier days only, so a
 * match is never fitted on its own result. The match day when a sensible date up to today is
 * given; for a later match (or no date), the start of tomorrow, i.e. every result we hold.
 */
export function asOfFor(details: Record<string, unknown>, now: Date): number {
  const tomorrow = dayOf(now.getTime()) + DAY_MS;
  const raw = details.date;
  if (typeof raw !== 'string') return tomorrow;
  const parsed = Date.parse(raw.trim());
  if (!Number.isFinite(parsed) || parsed < EARLIEST_AS_OF) return tomorrow;
  return Math.min(dayOf(parsed), tomorrow);
}

/**
 * Honest where data is thin (issue 50): a known, current league whose recent history is short
 * makes the level `low`, one whose results carry no odds caps it at `medium`; either way the
 * analysis says so (decision 0134's thresholds, those of a competition's `basis`).
 */
export function thinHistory(
  built: BuiltResult,
  matches: readonly PlayedMatch[],
  asOf: number,
  context: MatchContext,
  { locale, league }: { locale: Locale; league: string | null },
): BuiltResult {
  if (!context.league.known || context.league.stale) return built;
  const since = asOf - HISTORY_DAYS * DAY_MS;
  const recent = matches.filter((match) => match.date >= since);
  const basis = basisOf(recent.length, recent.filter((match) => match.market).length);
  if (basis === 'odds') return built;
  const quality = built.result.data_quality;
  const level = basis === 'priors' || quality.level === 'low' ? 'low' : 'medium';
  const analysis = withHistoryNote(
    built.result.analysis,
    basis === 'priors' ? 'short' : 'results',
    league ?? context.league.name,
    narrationPhrases(locale),
  );
  return {
    result: { ...built.result, analysis, data_quality: { ...quality, level } },
    facts: { ...built.facts, dataQuality: { ...built.facts.dataQuality, level } },
  };
}

/** The stored leagues a side can be promoted or relegated into `league` from (divisions.ts). */
async function neighboursOf(
  football: AnalystDeps['football'],
  league: FootballLeague,
): Promise<FootballLeague[]> {
  const found: FootballLeague[] = [];
  for (const code of linkedDivisions(league.code)) {
    const neighbour = await football.resolveLeague(code);
    if (neighbour && neighbour.code === code) found.push(neighbour);
  }
  return found;
}

/**
 * A league's matches of the fit's window, as the engine reads them. Reading each past match's
 * market (power margins) costs ~10 µs a row: a window of a few thousand rows is read in
 * slices, the event loop served between them (issue 50).
 */
async function windowOf(
  football: AnalystDeps['football'],
  leagueId: number,
  asOf: number,
): Promise<PlayedMatch[]> {
  const from = isoDay(asOf - DEFAULT_SETTINGS.windowDays * DAY_MS);
  const rows = await football.playedMatches(leagueId, from, isoDay(asOf));
  const matches: PlayedMatch[] = [];
  for (let start = 0; start < rows.length; start += PREPARE_SLICE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const row of rows.slice(start, start + PREPARE_SLICE)) {
      matches.push({
        date: Date.parse(`${row.playedOn}T00:00:00Z`),
        season: row.season,
        home: teamKey(row.homeTeamId),
        away: teamKey(row.awayTeamId),
        homeGoals: row.homeGoals,
        awayGoals: row.awayGoals,
        homeShots: row.homeShots,
        awayShots: row.awayShots,
        homeShotsOnTarget: row.homeShotsOnTarget,
        awayShotsOnTarget: row.awayShotsOnTarget,
        // The market's view of the past match: what the market rating learns from.
        market: pastMarketOf(marketOddsOf(row.odds)),
      });
    }
  }
  return matches;
}

/** The league's code and its stored neighbours' windows (none: not linked). */
async function linkedHistory(
  football: AnalystDeps['football'],
  league: FootballLeague,
  neighbours: readonly FootballLeague[],
  asOf: number,
): Promise<LinkedHistory<PlayedMatch> | undefined> {
  if (neighbours.length === 0) return undefined;
  const windows = neighbours.map(async (n) => ({
    league: n.code,
    matches: await windowOf(football, n.id, asOf),
  }));
  return { league: league.code, neighbours: await Promise.all(windows) };
}

/** The statistical text, or the configured LLM's rewrite of it, and the stored matrix. */
async function narrated(
  built: BuiltResult,
  matrix: ScoreMatrix,
  run: {
    narrator: Narrator;
    logger: FastifyBaseLogger;
    locale: Locale;
    modelName: string;
    checkAbort: () => void;
    signal: AbortSignal | undefined;
  },
): Promise<AnalysisOutcome> {
  const { narrator, logger, locale, modelName, checkAbort, signal } = run;
  const scoreMatrix = encodeMatrix(matrix);
  checkAbort();
  if (!narrator.model) return { result: { ...built.result }, aiModel: MODEL_NAME, scoreMatrix };
  try {
    const analysis = await narrator.rewrite(
      { facts: built.facts, draft: built.result.analysis, locale },
      signal,
    );
    return { result: { ...built.result, analysis }, aiModel: modelName, scoreMatrix };
  } catch (error) {
    checkAbort();
    logger.warn({ err: error, model: narrator.model }, 'LLM narrative failed; keeping the statistical text');
    return { result: { ...built.result }, aiModel: MODEL_NAME, scoreMatrix };
  }
}

export function createAnalyst(deps: AnalystDeps): FootballAnalyst {
  const { football, logger } = deps;
  const { narrator, fitter } = deps;
  const modelName = narrator.model ? `${MODEL_NAME}+${narrator.model}` : MODEL_NAME;
  const cache = new Map<string, FittedLeague>();
  /** Fits under way, by cache key and version: a second request waits for the first's fit. */
  const inflight = new Map<string, Promise<FittedLeague>>();
  const versions = new Map<string, { value: string; latest: string | null; checkedAt: number }>();
  const now = () => deps.clock.now().getTime();
  const national = createNationalForecaster({ internationalMatches: football.internationalMatches, now });
  const cups = createCupForecaster({ football, fitter, now });

  /** The league's results as of a day: changes when an import touches this league, no other. */
  async function leagueVersion(
    leagueId: number,
    asOf: number,
  ): Promise<{ value: string; latest: string | null }> {
    const now = deps.clock.now().getTime();
    const key = `${leagueId}:${asOf}`;
    const known = versions.get(key);
    if (known && now - known.checkedAt < VERSION_CHECK_MS && now >= known.checkedAt) return known;
    const version = await football.leagueVersion(leagueId, isoDay(asOf));
    const fresh = {
      value: `${version.matches}:${version.maxId}`,
      latest: version.latestBefore,
      checkedAt: now,
    };
    versions.set(key, fresh);
    while (versions.size > CACHE_ENTRIES * 4) versions.delete(versions.keys().next().value as string);
    return fresh;
  }

  async function fitLeague(league: FootballLeague, asOf: number): Promise<FittedLeague> {
    // The league's results and its linked divisions' (their promoted and relegated sides start
    // from their rating there): a fit is redone when any of them changes.
    const neighbours = await neighboursOf(football, league);
    const own = await leagueVersion(league.id, asOf);
    const current = {
      latest: own.latest,
      value: [own, ...(await Promise.all(neighbours.map((n) => leagueVersion(n.id, asOf))))]
        .map((version) => version.value)
        .join('|'),
    };
    const key = `${league.id}:${asOf}`;
    const cached = cache.get(key);
    if (cached && cached.version === current.value) return cached;
    const flightKey = `${key}:${current.value}`;
    const running = inflight.get(flightKey);
    if (running) return running;
    const flight = (async () => {
      const matches = await windowOf(football, league.id, asOf);
      const linked = await linkedHistory(football, league, neighbours, asOf);
      const ratings =
        matches.length > 0 ? await fitter.fit(matches, asOf, linked) : globalModel(asOf).ratings;
      const fitted: FittedLeague = {
        version: current.value,
        model: modelFromRatings(ratings),
        matches,
        latestResult: current.latest,
      };
      cache.delete(key);
      cache.set(key, fitted);
      // Oldest entry out first: Map keeps insertion order.
      while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
      return fitted;
    })().finally(() => inflight.delete(flightKey));
    inflight.set(flightKey, flight);
    return flight;
  }

  async function analyse(
    details: Record<string, unknown>,
    type: PronosticTypeSlug,
    signal?: AbortSignal,
    extra: AnalysisInput = {},
  ): Promise<AnalysisOutcome> {
    const checkAbort = () => signal?.throwIfAborted();
    checkAbort();
    const input = details ?? {};
    const locale = extra.locale ?? 'fr';
    const run = { narrator, logger, locale, modelName, checkAbort, signal };
    const homeName = displayName(input.home, narrationPhrases(locale).unnamedTeams.home);
    const awayName = displayName(input.away, narrationPhrases(locale).unnamedTeams.away);
    const leagueText = typeof input.league === 'string' ? input.league : '';
    const asOf = asOfFor(input, deps.clock.now());
    // Exclusive bound for "played by then" queries: the match day itself is not known yet.
    const dayAfter = isoDay(asOf);

    const [homeTeam, awayTeam] = await football.resolveTeams([homeName, awayName]);
    let league = leagueText ? await football.resolveLeague(leagueText) : undefined;
    if (!league) {
      // No league named (or one we do not know): the home side's league, else the away side's;
      // a side that plays elsewhere is rated from its own league below.
      league = homeTeam ? await football.latestLeagueOf(homeTeam.id, dayAfter) : undefined;
      if (!league && awayTeam) league = await football.latestLeagueOf(awayTeam.id, dayAfter);
    }
    checkAbort();

    if (homeTeam && awayTeam && isNationalAnalysis(league?.code, homeTeam.name, awayTeam.name)) {
      // National teams: the national-team model over every international result (issue 52).
      const leagueName = league ? competitionName(league.code, locale, league.name) : leagueText || null;
      const match = { home: homeTeam.name, away: awayTeam.name, leagueCode: league?.code ?? null };
      const words = { league: leagueName, locale };
      const { prediction, context } = await national.match(match, words, input.neutral, asOf);
      return narrated(buildResult(type, prediction, context, locale), prediction.matrix, run);
    }

    if (league && isCupAnalysis(league.code)) {
      // The European cups: every club on one scale over the domestic and cup results (issue 51).
      const sides = { homeTeam, awayTeam, homeName, awayName, neutral: input.neutral, leg: input.leg };
      const cup = await cups.analysis(type, league, sides, { asOf, locale });
      return narrated(cup.built, cup.matrix, run);
    }

    const fitted = league ? await fitLeague(league, asOf) : undefined;
    const model = fitted && fitted.model.ratings.matches > 0 ? fitted.model : globalModel(asOf);
    const leagueKnown = model.ratings.matches > 0;
    const homeKey = homeTeam ? teamKey(homeTeam.id) : 'unknown:home';
    const awayKey = awayTeam && awayTeam.id !== homeTeam?.id ? teamKey(awayTeam.id) : 'unknown:away';
    // A known side missing from this league's ratings (another league's club in a cup tie)
    // plays with its own league's rating rather than a promoted side's.
    let ratings = model.ratings;
    const history = [...(fitted?.matches ?? [])];
    for (const [team, key] of [
      [homeTeam, homeKey],
      [awayTeam, awayKey],
    ] as const) {
      if (!team || ratings.teams.has(key)) continue;
      const ownLeague = await football.latestLeagueOf(team.id, dayAfter);
      if (!ownLeague || ownLeague.id === league?.id) continue;
      // Promoted or relegated from a linked division: the market rating starts it from its rating
      // there (its `arrivals`); the results-only fit keeps the promoted side's prior, as in the
      // evaluation. Borrowing its old league's fit would rate it as if both divisions were equal.
      if (
        league &&
        linkedDivisions(league.code).includes(ownLeague.code) &&
        ratings.market?.arrivals?.has(key)
      )
        continue;
      const own = await fitLeague(ownLeague, asOf);
      const rating = own.model.ratings.teams.get(key);
      if (!rating) continue;
      ratings = {
        ...ratings,
        teams: new Map(ratings.teams).set(key, borrowRating(ratings, own.model.ratings, rating)),
        // The market rating knows this league's sides only: a visitor from elsewhere would play at a
        // promoted side's level there, so such a tie is answered by the results-only fit.
        market: null,
      };
      history.push(...own.matches);
    }
    // The fixture's own pre-match odds, when the analysis jobs have them (from the fixtures module),
    // never from teams_details: that is the user's own text, and must not steer the model.
    const prematchOdds = prematchOddsFrom(extra.prematchOdds);
    // The fixture's season from its date (July to June, as the results files label theirs): a
    // fixture of a season whose first results are not in yet is forecast with its sides carried
    // into it.
    const prediction = predictFixture(ratings, homeKey, awayKey, {
      season: seasonOfDate(asOf),
      ...(prematchOdds ? { prematchOdds } : {}),
    });
    const context: MatchContext = {
      home: {
        name: homeName,
        known: prediction.known.home,
        matches: ratings.teams.get(homeKey)?.matches ?? 0,
        form: prediction.known.home ? recentForm(history, homeKey, asOf) : null,
      },
      away: {
        name: awayName,
        known: prediction.known.away,
        matches: ratings.teams.get(awayKey)?.matches ?? 0,
        form: prediction.known.away ? recentForm(history, awayKey, asOf) : null,
      },
      league: { name: league?.name ?? (leagueText || null), known: leagueKnown },
    };
    const latest = fitted?.latestResult ?? null;
    if (league && (latest === null || Date.parse(`${latest}T00:00:00Z`) < asOf - STALE_AFTER_DAYS * DAY_MS)) {
      context.league.stale = { latestResult: latest };
    }
    const built = thinHistory(
      buildResult(type, prediction, context, locale),
      fitted?.matches ?? [],
      asOf,
      context,
      { locale, league: league ? competitionName(league.code, locale, league.name) : null },
    );
    return narrated(built, prediction.matrix, run);
  }

  return {
    modelName,
    analyse,
    async describe() {
      const stats = await football.stats();
      return { matches: stats.matches, leagues: stats.leagues };
    },
    close: () => fitter.close(),
  };
}
