// The prediction side: the AI narrator, where results and fixtures are downloaded from and how
// often, and the analysis worker (its concurrency, its lease, the queue's hold).
import { type Static, Type } from 'typebox';
import { aiDrivers } from '../lib/allowed-values.js';
import { ALL_COMPETITION_CODES } from '../lib/competitions.js';
import {
  ConfigError,
  choice,
  httpUrl,
  optionalText,
  Refusal,
  type SettingKeywords,
  wholeNumber,
} from '../lib/env-settings.js';
import { narratorWorstCaseMs } from '../lib/narrator-retries.js';
import { inProduction, inTests, requireSet } from './common.js';

/** League codes, duplicates dropped; `none` (or nothing) is no league. */
function parseLeagueCodes(raw: string): string[] {
  const codes = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.toLowerCase() !== 'none');
  return [...new Set(codes)];
}

/** FIXTURES_URL: the file's address on the web, or a file of this machine (`file:///…`). */
function parseFixturesUrl(raw: string): string {
  let protocol: string;
  try {
    protocol = new URL(raw.trim()).protocol;
  } catch {
    throw new Refusal(raw);
  }
  if (protocol !== 'http:' && protocol !== 'https:' && protocol !== 'file:') throw new Refusal(raw);
  return raw.trim();
}

/** FOOTBALL_TXT_URL: comma-separated addresses, each on the web or a file of this machine. */
function parseUrlList(raw: string): string[] {
  const parts = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.toLowerCase() !== 'none');
  return [...new Set(parts.map(parseFixturesUrl))];
}

export const PredictionSettings = Type.Object({
  aiDriver: choice('AI_DRIVER', aiDrivers, { default: 'builtin' }),
  ai: Type.Object({
    baseUrl: httpUrl('AI_BASE_URL'),
    apiKey: optionalText('AI_API_KEY'),
    model: optionalText('AI_MODEL'),
    timeoutMs: wholeNumber('AI_TIMEOUT_MS', {
      default: 10_000,
      minimum: 100,
      maximum: 600_000,
      description: 'Per LLM call, reading the answer included.',
    }),
    narrativeDeadlineMs: wholeNumber('AI_NARRATIVE_DEADLINE_MS', {
      default: 40_000,
      minimum: 100,
      maximum: 3_600_000,
      description: 'For the whole rewrite, retries included; past it the statistical text stands.',
    }),
  }),
  resultsBaseUrl: httpUrl('RESULTS_BASE_URL', { default: 'https://www.football-data.co.uk/mmz4281' }),
  resultsSyncLeagues: Type.Array(Type.String({ pattern: '^[A-Za-z0-9]{1,8}$' }), {
    env: 'RESULTS_SYNC_LEAGUES',
    accepts: 'comma-separated league codes such as E0,SP1 (or none)',
    // Nothing leaves the machine in development or tests unless asked.
    defaultFrom: (earlier) => (inProduction(earlier) ? [...ALL_COMPETITION_CODES] : []),
    parse: parseLeagueCodes,
    description:
      "Leagues whose current season the worker downloads from RESULTS_BASE_URL daily (football-data.co.uk codes: its divisions E0…G1 and its extra leagues ARG…USA, whose country files sit in RESULTS_BASE_URL's sibling folder `new/`). Default: every division and extra league in production, none elsewhere.",
  } satisfies SettingKeywords<string[]>),
  fixturesUrl: Type.String({
    env: 'FIXTURES_URL',
    accepts: 'an http(s) URL or a file:// URL',
    default: 'https://www.football-data.co.uk/fixtures.csv',
    parse: parseFixturesUrl,
    description:
      "Where `fixtures:sync` downloads upcoming fixtures (football-data.co.uk's fixtures.csv); `file:///…` reads a local copy.",
  } satisfies SettingKeywords<string>),
  extraFixturesUrl: Type.Union([Type.String(), Type.Undefined()], {
    env: 'EXTRA_FIXTURES_URL',
    accepts: 'an http(s) URL or a file:// URL',
    // Nothing leaves the machine in development or tests unless asked.
    defaultFrom: (earlier) =>
      inProduction(earlier) ? 'https://www.football-data.co.uk/new_league_fixtures.csv' : undefined,
    parse: parseFixturesUrl,
    description:
      "Upcoming fixtures of the extra leagues (ARG…USA; football-data.co.uk's new_league_fixtures.csv), synced with FIXTURES_URL's. Default: football-data's file in production, unset elsewhere.",
  } satisfies SettingKeywords<string | undefined>),
  footballTxtUrls: Type.Array(Type.String(), {
    env: 'FOOTBALL_TXT_URL',
    accepts: 'comma-separated http(s) or file:// URLs (or none)',
    default: [],
    parse: parseUrlList,
    description:
      "Football.TXT season files of the European cups (openfootball's cl.txt, el.txt, conf.txt): their scheduled matches become fixtures and their played ones results, at each fixtures sync (FIXTURES_SYNC_INTERVAL_HOURS) and `fixtures:sync`. Unset: none.",
  } satisfies SettingKeywords<string[]>),
  internationalResultsUrl: Type.Union([Type.String(), Type.Undefined()], {
    env: 'INTERNATIONAL_RESULTS_URL',
    accepts: 'an http(s) URL or a file:// URL',
    // Nothing leaves the machine in development or tests unless asked.
    defaultFrom: (earlier) =>
      inProduction(earlier)
        ? 'https://raw.githubusercontent.com/martj42/international_results/master/results.csv'
        : undefined,
    parse: parseFixturesUrl,
    description:
      "The national teams' results file (martj42/international_results' results.csv), synced by the worker with the daily results sync. Default: the dataset's published CSV in production, unset elsewhere.",
  } satisfies SettingKeywords<string | undefined>),
  downloadMaxBytes: wholeNumber('DOWNLOAD_MAX_BYTES', {
    default: 20 * 1024 * 1024,
    minimum: 1024,
    maximum: 1024 * 1024 * 1024,
    description:
      'Largest results or fixtures file a sync downloads (bytes); past it the sync fails with one line.',
  }),
  slipVoidDays: wholeNumber('SLIP_VOID_DAYS', {
    default: 3,
    minimum: 1,
    maximum: 60,
    description:
      'A slip leg whose match is not played this many days after its kick-off is void (DESIGN "Slips").',
  }),
  fixturesSyncIntervalHours: wholeNumber('FIXTURES_SYNC_INTERVAL_HOURS', {
    // Nothing leaves the machine in development or tests unless asked.
    defaultFrom: (earlier) => (inProduction(earlier) ? 6 : 0),
    minimum: 0,
    maximum: 168,
    description:
      'How often the worker syncs fixtures of RESULTS_SYNC_LEAGUES from FIXTURES_URL (0: never; by hand with `fixtures:sync`). Default: 6 in production, 0 elsewhere.',
  }),
  workerConcurrency: wholeNumber('WORKER_CONCURRENCY', {
    default: 4,
    minimum: 1,
    maximum: 64,
    description: 'Analyses one worker process runs at once.',
  }),
  analysisQueueMaxWaitSeconds: wholeNumber('ANALYSIS_QUEUE_MAX_WAIT_SECONDS', {
    // Tests drain the queue by hand (or not at all) on a clock they move.
    defaultFrom: (earlier) => (inTests(earlier) ? 0 : 1),
    minimum: 0,
    maximum: 3600,
    description:
      'While the oldest analysis waiting for a worker has waited longer than this, new pronostics are held (ANALYSIS_QUEUE_HOLD_SECONDS, then 429) before any debit, so an accepted analysis does not queue for minutes (0: never hold). Default: 1, 0 in tests.',
  }),
  analysisQueueHoldSeconds: wholeNumber('ANALYSIS_QUEUE_HOLD_SECONDS', {
    default: 10,
    minimum: 1,
    maximum: 120,
    description: 'How long a new pronostic is held while the analysis queue is too deep, before a 429.',
  }),
  workerLeaseSeconds: wholeNumber('WORKER_LEASE_SECONDS', {
    default: 60,
    minimum: 10,
    maximum: 3600,
    description: 'How long a claim holds a pronostic row; an analysis still running then is aborted.',
  }),
});
export type PredictionConfig = Static<typeof PredictionSettings>;

export function requireAiSettings(config: PredictionConfig): void {
  if (config.aiDriver !== 'openai') return;
  requireSet('AI_DRIVER=openai', {
    AI_BASE_URL: config.ai.baseUrl,
    AI_API_KEY: config.ai.apiKey,
    AI_MODEL: config.ai.model,
  });
}

/**
 * A paid analysis must never be lost to a slow LLM: the narrator's deadline leaves a third of the
 * job lease to the statistical model and the writes, and the narrator's tries fit its deadline.
 */
export function requireNarrativeInsideLease(config: PredictionConfig): void {
  const { narrativeDeadlineMs, timeoutMs } = config.ai;
  const leaseMs = config.workerLeaseSeconds * 1000;
  const narrativeMaxMs = Math.floor((leaseMs * 2) / 3);
  if (narrativeDeadlineMs > narrativeMaxMs) {
    throw new ConfigError(
      `AI_NARRATIVE_DEADLINE_MS=${narrativeDeadlineMs} does not fit the job lease: at most ${narrativeMaxMs} ms (two thirds of WORKER_LEASE_SECONDS=${config.workerLeaseSeconds})`,
    );
  }
  const worstCaseMs = narratorWorstCaseMs(timeoutMs);
  if (config.aiDriver === 'openai' && worstCaseMs > narrativeDeadlineMs) {
    throw new ConfigError(
      `AI_TIMEOUT_MS=${timeoutMs} does not fit AI_NARRATIVE_DEADLINE_MS=${narrativeDeadlineMs}: 3 tries and their pauses may take ${worstCaseMs} ms`,
    );
  }
}
