// The analyst the worker calls: it finds the league and teams a pronostic names (any case, any
// accents, aliases), fits the league's ratings on the results before the match day (one fit per
// league and day, on a worker thread so the event loop never waits on it; refitted when that
// league's results change), builds the result of the requested type, and lets the configured
// narrator rewrite the text. Thin data is answered from priors, never refused; stale data is said.

import type { FastifyBaseLogger } from 'fastify';
import type { FootballLeague } from '../../db/schema/football.js';
import { recentForm } from '../../engine/form.js';
import {
  DEFAULT_SETTINGS,
  dayOf,
  type FittedModel,
  globalModel,
  MODEL_NAME,
  modelFromRatings,
} from '../../engine/model.js';
import { borrowRating, predictFixture } from '../../engine/predict.js';
import { buildResult, type MatchContext, narrationPhrases } from '../../engine/result.js';
import { seasonOfDate } from '../../engine/season.js';
import type { PlayedMatch } from '../../engine/types.js';
import type { PronosticTypeSlug } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { DAY_MS, isoDay } from '../../lib/time.js';
import type { Narrator } from '../../providers/ai/types.js';
import type { AnalysisInput, AnalysisOutcome, Analyst } from '../../types/analyst.js';
import { pastMarketOf, prematchOddsFrom } from './evaluation-data.js';
import type { LeagueFitter } from './fit-pool.js';
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
    'resolveLeague' | 'resolveTeams' | 'latestLeagueOf' | 'playedMatches' | 'stats' | 'leagueVersion'
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
const CACHE_ENTRIES = 32;
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

export function createAnalyst(deps: AnalystDeps): FootballAnalyst {
  const { football, logger } = deps;
  const { narrator, fitter } = deps;
  const modelName = narrator.model ? `${MODEL_NAME}+${narrator.model}` : MODEL_NAME;
  const cache = new Map<string, FittedLeague>();
  /** Fits under way, by cache key and version: a second request waits for the first's fit. */
  const inflight = new Map<string, Promise<FittedLeague>>();
  const versions = new Map<string, { value: string; latest: string | null; checkedAt: number }>();

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
    const current = await leagueVersion(league.id, asOf);
    const key = `${league.id}:${asOf}`;
    const cached = cache.get(key);
    if (cached && cached.version === current.value) return cached;
    const flightKey = `${key}:${current.value}`;
    const running = inflight.get(flightKey);
    if (running) return running;
    const flight = (async () => {
      const from = isoDay(asOf - DEFAULT_SETTINGS.windowDays * DAY_MS);
      const rows = await football.playedMatches(league.id, from, isoDay(asOf));
      const matches: PlayedMatch[] = rows.map((row) => ({
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
      }));
      const ratings = matches.length > 0 ? await fitter.fit(matches, asOf) : globalModel(asOf).ratings;
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
    const built = buildResult(type, prediction, context, locale);
    checkAbort();

    if (!narrator.model) return { result: { ...built.result }, aiModel: MODEL_NAME };
    try {
      const analysis = await narrator.rewrite(
        { facts: built.facts, draft: built.result.analysis, locale },
        signal,
      );
      return { result: { ...built.result, analysis }, aiModel: modelName };
    } catch (error) {
      checkAbort();
      logger.warn(
        { err: error, model: narrator.model },
        'LLM narrative failed; keeping the statistical text',
      );
      return { result: { ...built.result }, aiModel: MODEL_NAME };
    }
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
