// Admission to the analysis queue: while the oldest row waiting for a lane has waited longer than
// ANALYSIS_QUEUE_MAX_WAIT_SECONDS, a create is held before any debit, goes ahead once the queue
// drains, and is refused (429, nothing written) past ANALYSIS_QUEUE_HOLD_SECONDS.
import { count, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { pronostics } from '../../src/db/schema/index.js';
import { fixedAnalyst } from '../fakes/analysts.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

const match = { home: 'Arsenal', away: 'Chelsea', league: 'E0' };
const open: TestApp[] = [];

async function app(config: { analysisQueueMaxWaitSeconds: number; analysisQueueHoldSeconds?: number }) {
  const t = await createTestApp({ config, analyst: fixedAnalyst('stat-model-1') });
  open.push(t);
  return t;
}

afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

function create(t: TestApp, user: SignedIn, key?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: { ...user.headers, ...(key ? { 'idempotency-key': key } : {}) },
    payload: { type_id: 1, teams_details: match },
  });
}

async function rowsOf(t: TestApp, user: SignedIn): Promise<number> {
  const [row] = await t.app.db.select({ n: count() }).from(pronostics).where(eq(pronostics.userId, user.id));
  return row!.n;
}

async function creditsOf(t: TestApp, user: SignedIn): Promise<number> {
  const response = await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers });
  return response.json().user.credits_balance;
}

describe('analysis queue admission', () => {
  it('refuses a create held past the hold with a 429 that debits nothing, and releases its key', async () => {
    const t = await app({ analysisQueueMaxWaitSeconds: 2, analysisQueueHoldSeconds: 1 });
    const user = await signIn(t, { credits: 10 });
    expect((await create(t, user)).statusCode).toBe(201);
    const before = await creditsOf(t, user);
    // No worker runs: the first row has now waited 5 s for a lane.
    t.clock.advanceSeconds(5);

    const refused = await create(t, user, 'key-1');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.json()).toMatchObject({ data: { retry_after: 2 } });
    expect(refused.json().message).toMatch(/aucun crédit/);
    expect(await creditsOf(t, user)).toBe(before);
    expect(await rowsOf(t, user)).toBe(1);

    // Drained, the same key goes through (the refusal did not keep it).
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
    const retried = await create(t, user, 'key-1');
    expect(retried.statusCode).toBe(201);
    expect(await rowsOf(t, user)).toBe(2);
  });

  it('holds a create while the queue is too deep and lets it through once a worker drains it', async () => {
    const t = await app({ analysisQueueMaxWaitSeconds: 2, analysisQueueHoldSeconds: 60 });
    const user = await signIn(t, { credits: 10 });
    expect((await create(t, user)).statusCode).toBe(201);
    t.clock.advanceSeconds(5);

    let answered = false;
    const held = create(t, user).then((response) => {
      answered = true;
      return response;
    });
    // Several readings of the queue (one each 100 ms) go by: still held, nothing written.
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(answered).toBe(false);
    expect(await rowsOf(t, user)).toBe(1);

    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
    const response = await held;
    expect(response.statusCode).toBe(201);
    expect(await rowsOf(t, user)).toBe(2);
  });

  it('does not count a row a worker is analysing, nor one waiting less than the limit', async () => {
    const t = await app({ analysisQueueMaxWaitSeconds: 2, analysisQueueHoldSeconds: 1 });
    const user = await signIn(t, { credits: 10 });
    expect((await create(t, user)).statusCode).toBe(201);
    t.clock.advanceSeconds(1);
    expect((await create(t, user)).statusCode).toBe(201);

    // Both rows claimed (under a 60 s lease): 5 s later neither waits for a lane.
    const now = t.clock.now();
    const lease = new Date(now.getTime() + 60_000);
    expect(await t.app.services.analysisJobs.claimNext(now, lease)).toBeDefined();
    expect(await t.app.services.analysisJobs.claimNext(now, lease)).toBeDefined();
    t.clock.advanceSeconds(5);
    expect((await create(t, user)).statusCode).toBe(201);
  });

  it('never holds when the limit is 0', async () => {
    const t = await app({ analysisQueueMaxWaitSeconds: 0 });
    const user = await signIn(t, { credits: 10 });
    expect((await create(t, user)).statusCode).toBe(201);
    t.clock.advanceSeconds(120);
    expect((await create(t, user)).statusCode).toBe(201);
  });
});
