// The `openai` narrator: one chat-completions call to any OpenAI-compatible endpoint, with a
// strict JSON-schema answer `{analysis}`. Each attempt has its own timeout; outages (network,
// timeout, 429, 5xx) are retried with doubling pauses, anything else fails at once; the whole
// rewrite, retries included, stops at the narrator's deadline. The answer is checked before use:
// a text that is empty, huge, talks of betting or promises winnings is refused.
import { setTimeout as sleep } from 'node:timers/promises';
import type { AnalysisFacts } from '../../engine/narration.js';
import type { Locale } from '../../lib/allowed-values.js';
import { en } from '../../lib/catalogues/en.js';
import { NARRATOR_ATTEMPTS, NARRATOR_MAX_PAUSE_MS } from '../../lib/narrator-retries.js';
import { promisesOf } from '../../lib/promises.js';
import { NarrativeError, type NarrativeRequest, type Narrator, type NarratorDeps } from './types.js';

export interface OpenAiSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** Per attempt, reading the answer included. */
  timeoutMs: number;
  /** For the whole rewrite, retries and pauses included: past it, the caller keeps its own text. */
  deadlineMs: number;
}

const DEFAULT_RETRY_DELAY_MS = 500;
const MIN_LENGTH = 40;
const MAX_LENGTH = 2_000;
/** Words an operator's filter (and our own rule) keeps out of the text. */
const FORBIDDEN =
  /\b(pari|paris|parier|pariez|mise|miser|misez|cotes?|bookmakers?|garanti|garantie|jackpot)\b/i;
/** The same rule for an English text. */
const FORBIDDEN_EN =
  /\b(bet|bets|betting|bettors?|wagers?|wagering|gambl\w*|odds|bookmakers?|guaranteed?|jackpot)\b/i;

const SYSTEM_PROMPT = [
  'Tu es analyste football pour une application de pronostics.',
  'Réécris en français l’analyse du match à partir des chiffres fournis, en 3 à 6 phrases claires.',
  'N’invente aucun chiffre, aucun joueur, aucune blessure : n’utilise que les données reçues.',
  'Ne change ni le choix du modèle ni ses probabilités. Ne promets jamais de résultat,',
  'n’emploie aucun vocabulaire de pari ou de mise, et rappelle que l’issue reste incertaine.',
  'Si les données sont minces (data_quality low, équipe inconnue), dis-le simplement.',
].join(' ');

/** The same instructions for an English analysis (an account whose language is English). */
const SYSTEM_PROMPT_EN = [
  'You are a football analyst for a match-prediction app.',
  'Rewrite the match analysis in English from the figures provided, in 3 to 6 clear sentences.',
  'Invent no figure, no player, no injury: use only the data received.',
  'Change neither the model’s pick nor its probabilities. Never promise a result,',
  'use no betting or staking vocabulary, and recall that the outcome remains uncertain.',
  'If the data is thin (data_quality low, unknown team), say so simply.',
].join(' ');

function responseFormat(description: string) {
  return {
    type: 'json_schema',
    json_schema: {
      name: 'match_analysis',
      strict: true,
      schema: {
        type: 'object',
        properties: { analysis: { type: 'string', description } },
        required: ['analysis'],
        additionalProperties: false,
      },
    },
  } as const;
}

/** What the LLM is told, by the analysis's language (French: exactly as before English existed). */
const INSTRUCTIONS: Record<Locale, { system: string; format: ReturnType<typeof responseFormat> }> = {
  fr: { system: SYSTEM_PROMPT, format: responseFormat('L’analyse en français, texte brut.') },
  en: { system: SYSTEM_PROMPT_EN, format: responseFormat('The analysis in English, plain text.') },
};

/** What the LLM is shown: the model's numbers in plain percentages, and the statistical draft. */
export function promptPayload(request: NarrativeRequest): Record<string, unknown> {
  const facts: AnalysisFacts = request.facts;
  const english = request.locale === 'en';
  const pct = (value: number) => Math.round(value * 1000) / 10;
  const team = (side: AnalysisFacts['home']) => ({
    name: side.name,
    known_to_model: side.known,
    matches_in_data: side.matches,
    // The engine's letters are French (V, N, D); an English prompt gets W, D, L.
    last_results: side.form
      ? english
        ? en.analysisTexts.formLetters(side.form.results.join(''))
        : side.form.results.join('')
      : null,
    goals_for_last5: side.form?.goalsFor ?? null,
    goals_against_last5: side.form?.goalsAgainst ?? null,
  });
  return {
    league: facts.league.name,
    league_known: facts.league.known,
    home: team(facts.home),
    away: team(facts.away),
    market: facts.market,
    pick: facts.pickLabel,
    confidence_percent: pct(facts.confidence),
    result_percent: {
      home: pct(facts.oneXTwo.home),
      draw: pct(facts.oneXTwo.draw),
      away: pct(facts.oneXTwo.away),
    },
    both_teams_score_percent: pct(facts.bttsYes),
    over_2_5_goals_percent: pct(facts.over25),
    expected_goals: facts.expectedGoals,
    likeliest_scores: facts.scores.map((entry) => ({ score: entry.score, percent: pct(entry.probability) })),
    data_quality: facts.dataQuality.level,
    end_of_season_stakes: facts.stakes,
    statistical_draft: request.draft,
  };
}

/** The analysis text of a chat-completions answer, or a NarrativeError saying what was wrong. */
export function readAnswer(body: unknown, locale: Locale = 'fr'): string {
  const message = (body as { choices?: Array<{ message?: { content?: unknown; refusal?: unknown } }> })
    ?.choices?.[0]?.message;
  if (!message) throw new NarrativeError('answer without choices[0].message', 'malformed');
  if (typeof message.refusal === 'string' && message.refusal !== '') {
    throw new NarrativeError('the model refused to answer', 'rejected');
  }
  if (typeof message.content !== 'string')
    throw new NarrativeError('answer without text content', 'malformed');
  let parsed: unknown;
  try {
    parsed = JSON.parse(message.content);
  } catch (error) {
    throw new NarrativeError('answer content is not JSON', 'malformed', { cause: error });
  }
  const analysis = (parsed as { analysis?: unknown })?.analysis;
  if (typeof analysis !== 'string') throw new NarrativeError('answer has no "analysis" string', 'malformed');
  const text = analysis.replace(/\s+/g, ' ').trim();
  if (text.length < MIN_LENGTH || text.length > MAX_LENGTH) {
    throw new NarrativeError(`analysis of ${text.length} characters is out of bounds`, 'malformed');
  }
  if ((locale === 'en' ? FORBIDDEN_EN : FORBIDDEN).test(text)) {
    throw new NarrativeError('analysis uses betting vocabulary', 'rejected');
  }
  // Words that promise nothing (issue 54): the built-in text stands instead.
  if (promisesOf(text).length > 0) throw new NarrativeError('analysis promises winnings', 'rejected');
  return text;
}

export function createOpenAiNarrator(settings: OpenAiSettings, deps: NarratorDeps): Narrator {
  const doFetch = deps.fetch ?? globalThis.fetch;
  const retryDelayMs = deps.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  /** Why a stopped rewrite stopped: the caller gave up, or the deadline passed. */
  function stopped(signal: AbortSignal | undefined, cause: unknown): NarrativeError {
    if (signal?.aborted) return new NarrativeError('analysis aborted', 'aborted', { cause });
    return new NarrativeError(
      `no usable answer within the deadline of ${settings.deadlineMs} ms`,
      'deadline',
      {
        cause,
      },
    );
  }

  async function attempt(
    body: string,
    locale: Locale,
    signal: AbortSignal | undefined,
    deadline: AbortSignal,
  ): Promise<string> {
    const timeout = AbortSignal.timeout(settings.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await doFetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${settings.apiKey}`, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.any(signal ? [signal, deadline, timeout] : [deadline, timeout]),
      });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted || deadline.aborted) throw stopped(signal, error);
      if (timeout.aborted) {
        throw new NarrativeError(`no answer within ${settings.timeoutMs} ms`, 'timeout', { cause: error });
      }
      throw new NarrativeError(`endpoint unreachable (${(error as Error).message})`, 'unavailable', {
        cause: error,
      });
    }
    if (response.status === 429 || response.status >= 500) {
      throw new NarrativeError(`endpoint answered ${response.status}`, 'unavailable', {
        retryAfterMs: retryAfter(response.headers.get('retry-after')),
      });
    }
    if (!response.ok) throw new NarrativeError(`endpoint answered ${response.status}`, 'rejected');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new NarrativeError('answer body is not JSON', 'malformed', { cause: error });
    }
    return readAnswer(parsed, locale);
  }

  return {
    model: settings.model,
    async rewrite(request, signal) {
      const locale = request.locale ?? 'fr';
      const instructions = INSTRUCTIONS[locale];
      const body = JSON.stringify({
        model: settings.model,
        messages: [
          { role: 'system', content: instructions.system },
          { role: 'user', content: JSON.stringify(promptPayload(request)) },
        ],
        response_format: instructions.format,
        temperature: 0.4,
      });
      const deadline = AbortSignal.timeout(settings.deadlineMs);
      const stop = signal ? AbortSignal.any([signal, deadline]) : deadline;
      for (let tries = 1; ; tries++) {
        try {
          return await attempt(body, locale, signal, deadline);
        } catch (error) {
          const failure =
            error instanceof NarrativeError ? error : new NarrativeError(String(error), 'unavailable');
          const retryable =
            (failure.reason === 'timeout' || failure.reason === 'unavailable') && !stop.aborted;
          if (!retryable || tries >= NARRATOR_ATTEMPTS) throw failure;
          const pause = Math.min(
            failure.retryAfterMs ?? retryDelayMs * 2 ** (tries - 1),
            NARRATOR_MAX_PAUSE_MS,
          );
          deps.logger.warn(
            { reason: failure.reason, tries, error: failure.message },
            'LLM narrative failed, retrying',
          );
          try {
            if (pause > 0) await sleep(pause, undefined, { signal: stop });
          } catch (abort) {
            throw stopped(signal, abort);
          }
        }
      }
    },
  };
}

function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}
