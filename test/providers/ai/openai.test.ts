import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../../src/config.js';
import { fitModel } from '../../../src/engine/model.js';
import { buildResult } from '../../../src/engine/result.js';
import { createNarrator, NarrativeError, type NarrativeRequest } from '../../../src/providers/ai/index.js';
import { simulateLeague } from '../../engine/simulate.js';
import { type FakeOpenAi, OPENAI_API_KEY, OPENAI_MODEL, startFakeOpenAi } from '../../fakes/openai.js';

const silent = { warn() {}, info() {}, error() {}, debug() {} } as never;
let fake: FakeOpenAi;

const { matches } = simulateLeague({ teams: 8, seasons: 1, seed: 5 });
const built = buildResult('1x2', fitModel(matches, matches.at(-1)!.date + 1).predict('Team 01', 'Team 05'), {
  home: { name: 'Team 01', known: true, matches: 14, form: null },
  away: { name: 'Team 05', known: true, matches: 14, form: null },
  league: { name: 'Test', known: true },
});
const request: NarrativeRequest = { facts: built.facts, draft: built.result.analysis };

function narrator(timeoutMs = 2000, narrativeDeadlineMs = 20_000) {
  return createNarrator(
    testConfig({
      aiDriver: 'openai',
      ai: {
        baseUrl: fake.baseUrl,
        apiKey: OPENAI_API_KEY,
        model: OPENAI_MODEL,
        timeoutMs,
        narrativeDeadlineMs,
      },
    }),
    { logger: silent, retryDelayMs: 1 },
  );
}

beforeAll(async () => {
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.modes = ['ok'];
});

describe('openai narrator', () => {
  it('sends a strict json_schema request with the bearer key and returns the rewritten text', async () => {
    const text = await narrator().rewrite(request);
    expect(text).toBe(fake.analysis);
    expect(fake.requests).toHaveLength(1);
    const sent = fake.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.authorization).toBe(`Bearer ${OPENAI_API_KEY}`);
    expect(sent.body.model).toBe(OPENAI_MODEL);
    const user = (sent.body.messages as Array<{ role: string; content: string }>).find(
      (m) => m.role === 'user',
    )!;
    const payload = JSON.parse(user.content);
    expect(payload.home.name).toBe('Team 01');
    expect(payload.statistical_draft).toBe(request.draft);
    expect(payload.result_percent.home).toBeCloseTo(built.facts.oneXTwo.home * 100, 1);
  });

  it('retries a 500 and succeeds on the next try', async () => {
    fake.modes = ['error500', 'ok'];
    expect(await narrator().rewrite(request)).toBe(fake.analysis);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up after its tries when the endpoint does not answer in time', async () => {
    fake.modes = ['hang'];
    const started = Date.now();
    const error = await narrator(150)
      .rewrite(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NarrativeError);
    expect((error as NarrativeError).reason).toBe('timeout');
    expect(fake.requests).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses a malformed answer, a non-JSON answer, a refusal and betting words, without retrying', async () => {
    for (const [mode, reason] of [
      ['malformed', 'malformed'],
      ['not-json', 'malformed'],
      ['refusal', 'rejected'],
      ['betting', 'rejected'],
    ] as const) {
      fake.requests.length = 0;
      fake.modes = [mode];
      const error = await narrator()
        .rewrite(request)
        .catch((e: unknown) => e);
      expect(error, mode).toBeInstanceOf(NarrativeError);
      expect((error as NarrativeError).reason, mode).toBe(reason);
      expect(fake.requests, mode).toHaveLength(1);
    }
  });

  it('does not retry a wrong key', async () => {
    const wrongKey = createNarrator(
      testConfig({
        aiDriver: 'openai',
        ai: {
          baseUrl: fake.baseUrl,
          apiKey: 'nope',
          model: OPENAI_MODEL,
          timeoutMs: 2000,
          narrativeDeadlineMs: 20_000,
        },
      }),
      { logger: silent, retryDelayMs: 1 },
    );
    await expect(wrongKey.rewrite(request)).rejects.toMatchObject({ reason: 'rejected' });
    expect(fake.requests).toHaveLength(1);
  });

  it('stops when the caller aborts', async () => {
    fake.modes = ['hang'];
    const controller = new AbortController();
    const pending = narrator(5000).rewrite(request, controller.signal);
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ reason: 'aborted' });
  });

  it('stops at its deadline when the answer would come later, without another try', async () => {
    fake.modes = ['slow'];
    fake.slowMs = 5_000;
    const error = await narrator(10_000, 200)
      .rewrite(request)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NarrativeError);
    expect((error as NarrativeError).reason).toBe('deadline');
    expect(fake.requests).toHaveLength(1);
  });

  it('does not wait out a retry pause that ends past its deadline', async () => {
    fake.modes = ['error500', 'ok'];
    const slowRetries = createNarrator(
      testConfig({
        aiDriver: 'openai',
        ai: {
          baseUrl: fake.baseUrl,
          apiKey: OPENAI_API_KEY,
          model: OPENAI_MODEL,
          timeoutMs: 2000,
          narrativeDeadlineMs: 200,
        },
      }),
      { logger: silent, retryDelayMs: 60_000 },
    );
    await expect(slowRetries.rewrite(request)).rejects.toMatchObject({ reason: 'deadline' });
    expect(fake.requests).toHaveLength(1);
  });

  it('builtin keeps the statistical text and names no LLM', async () => {
    const builtin = createNarrator(testConfig(), { logger: silent });
    expect(builtin.model).toBeNull();
    expect(await builtin.rewrite(request)).toBe(request.draft);
  });
});
