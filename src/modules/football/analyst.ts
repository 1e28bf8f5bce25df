// The analyst the worker calls: it finds the league and teams a pronostic names (any case, any
// accents, aliases), fits the league's ratings as of the match date (cached per league and day,
// refitted when new results arrive), builds the result of the requested type, and lets the
// configured narrator rewrite the text. Thin data is answered from priors, never refused.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { FootballLeague } from '../../db/schema/index.js';
import { recentForm } from '../../engine/form.js';
import {
  DEFAULT_SETTINGS,
  dayOf,
  type FittedModel,
  fitModel,
  globalModel,
  MODEL_NAME,
} from '../../engine/model.js';
import { borrowRating, predictFixture } from '../../engine/predict.js';
import { buildResult, type MatchContext } from '../../engine/result.js';
import type { PlayedMatch, PronosticTypeSlug } from '../../engine/types.js';
import type { Clock } from '../../lib/clock.js';
import { createNarrator } from '../../providers/ai/index.js';
import type { Narrator } from '../../providers/ai/types.js';
import type { AnalysisEngine, AnalysisOutcome } from '../../worker/analysis-engine.js';
import type { FootballService } from './service.js';

/**
 * The worker's analysis engine (model name e.g. 'dixon-coles-1', or 'dixon-coles-1+gpt-4o-mini'
 * with the LLM); thin data is not a failure.
 */
export interface Analyst extends AnalysisEngine {
  /** Cheap facts for the start-up log, e.g. { matches: 0 } → a warning that no results are loaded. */
  describe(): Promise<{ matches: number; leagues: number }>;
}

export interface AnalystDeps {
  /** The results it fits on and the names it resolves. */
  football: Pick<
    FootballService,
    'resolveLeague' | 'resolveTeam' | 'latestLeagueOf' | 'playedMatches' | 'stats'
  >;
  config: Config;
  logger: FastifyBaseLogger;
  clock: Clock;
  fetch?: typeof fetch;
  /** A narrator instead of the configured one (tests). */
  narrator?: Narrator;
}

const DAY_MS = 86_400_000;
/** How often the cache asks whether results were added. */
const VERSION_CHECK_MS = 5_000;
const CACHE_ENTRIES = 32;
/** Dates before this are typos, not matches to analyse as of then. */
const EARLIEST_AS_OF = Date.UTC(1990, 0, 1);

interface FittedLeague {
  version: string;
  model: FittedModel;
  matches: PlayedMatch[];
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

/** The "as of" instant: the match day when a sensible past or present date is given, else now. */
export function asOfFor(details: Record<string, unknown>, now: Date): number {
  const nowMs = now.getTime();
  const raw = details.date;
  if (typeof raw !== 'string') return nowMs;
  const parsed = Date.parse(raw.trim());
  if (!Number.isFinite(parsed) || parsed < EARLIEST_AS_OF) return nowMs;
  // A match on a past day is analysed with what was known the day before it; today or later, with all we have.
  const day = dayOf(parsed);
  return day < dayOf(nowMs) ? day : nowMs;
}

export function createAnalyst(deps: AnalystDeps): Analyst {
  const { football, logger } = deps;
  const narrator = deps.narrator ?? createNarrator(deps.config, { logger, fetch: deps.fetch });
  const modelName = narrator.model ? `${MODEL_NAME}+${narrator.model}` : MODEL_NAME;
  const cache = new Map<string, FittedLeague>();
  let version: { value: string; checkedAt: number } | undefined;

  async function dataVersion(): Promise<string> {
    const now = deps.clock.now().getTime();
    if (!version || now - version.checkedAt >= VERSION_CHECK_MS || now < version.checkedAt) {
      const stats = await football.stats();
      version = { value: `${stats.matches}:${stats.maxId}`, checkedAt: now };
    }
    return version.value;
  }

  async function fitLeague(league: FootballLeague, asOf: number): Promise<FittedLeague> {
    const current = await dataVersion();
    const key = `${league.id}:${dayOf(asOf)}:${asOf >= dayOf(deps.clock.now().getTime()) ? 'now' : 'past'}`;
    const cached = cache.get(key);
    if (cached && cached.version === current) return cached;

    const from = new Date(asOf - DEFAULT_SETTINGS.windowDays * DAY_MS).toISOString().slice(0, 10);
    const before = new Date(asOf + DAY_MS).toISOString().slice(0, 10);
    const rows = await football.playedMatches(league.id, from, before);
    const matches: PlayedMatch[] = rows.map((row) => ({
      date: Date.parse(`${row.playedOn}T00:00:00Z`),
      home: teamKey(row.homeTeamId),
      away: teamKey(row.awayTeamId),
      homeGoals: row.homeGoals,
      awayGoals: row.awayGoals,
      homeShotsOnTarget: row.homeShotsOnTarget,
      awayShotsOnTarget: row.awayShotsOnTarget,
    }));
    const fitted: FittedLeague = { version: current, model: fitModel(matches, asOf), matches };
    cache.delete(key);
    cache.set(key, fitted);
    // Oldest entry out first: Map keeps insertion order.
    while (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
    return fitted;
  }

  async function analyse(
    details: Record<string, unknown>,
    type: PronosticTypeSlug,
    signal?: AbortSignal,
  ): Promise<AnalysisOutcome> {
    const checkAbort = () => signal?.throwIfAborted();
    checkAbort();
    const input = details ?? {};
    const homeName = displayName(input.home, 'Équipe à domicile');
    const awayName = displayName(input.away, 'Équipe à l’extérieur');
    const leagueText = typeof input.league === 'string' ? input.league : '';
    const asOf = asOfFor(input, deps.clock.now());
    // Exclusive bound for "played by then" queries on match days.
    const dayAfter = new Date(asOf + DAY_MS).toISOString().slice(0, 10);

    const [homeTeam, awayTeam] = await Promise.all([
      football.resolveTeam(homeName),
      football.resolveTeam(awayName),
    ]);
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
      };
      history.push(...own.matches);
    }
    const prediction = predictFixture(ratings, homeKey, awayKey);
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
    const built = buildResult(type, prediction, context);
    checkAbort();

    if (!narrator.model) return { result: { ...built.result }, aiModel: MODEL_NAME };
    try {
      const analysis = await narrator.rewrite({ facts: built.facts, draft: built.result.analysis }, signal);
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
  };
}
