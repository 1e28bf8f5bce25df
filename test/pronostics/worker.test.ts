import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { pronostics, pronosticTypes, walletOperations } from '../../src/db/schema/index.js';
import { createAnalysisJobs } from '../../src/modules/pronostics/analysis-jobs.js';
import { createAnalysisWorker } from '../../src/runtime/analysis-worker.js';
import { failingAnalyst, fixedAnalyst, hangingAnalyst, hangingOn } from '../fakes/analysts.js';
import { OPENAI_API_KEY, OPENAI_MODEL, startFakeOpenAi } from '../fakes/openai.js';
import {
  createTestApp,
  createTestDatabase,
  expectLedgerConsistent,
  postgresUrlOf,
  type SignedIn,
  signIn,
  type TestApp,
  usingPostgres,
} from '../helpers.js';

const match = { home: 'Arsenal', away: 'Chelsea', league: 'E0' };
const open: TestApp[] = [];

async function app(options: Parameters<typeof createTestApp>[0] = {}): Promise<TestApp> {
  const t = await createTestApp(options);
  open.push(t);
  return t;
}

afterEach(async () => {
  for (const t of open.splice(0)) {
    await expectLedgerConsistent(t);
    await t.close();
  }
});

async function create(t: TestApp, user: SignedIn, typeId = 1): Promise<number> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: user.headers,
    payload: { type_id: typeId, teams_details: match },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data.pronostic.id;
}

async function detail(t: TestApp, user: SignedIn, id: number) {
  return (
    await t.app.inject({ method: 'GET', url: `/api/user/pronostic/${id}`, headers: user.headers })
  ).json().data.pronostic;
}

async function rowOf(t: TestApp, id: number) {
  const [row] = await t.app.db.select().from(pronostics).where(eq(pronostics.id, id));
  return row!;
}

async function operationsOf(t: TestApp, user: SignedIn) {
  const rows = await t.app.db.select().from(walletOperations).where(eq(walletOperations.userId, user.id));
  return rows.map((operation) => [operation.type, operation.amount]);
}

/** Waits (bounded, without timing anything) until the row has left `processing`. */
async function settled(t: TestApp, id: number) {
  for (let i = 0; i < 500 && (await rowOf(t, id)).status === 'processing'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return rowOf(t, id);
}

describe('analysis worker', () => {
  it('analyses a new row to success and rewrites ai_model with the model that ran', async () => {
    const engine = fixedAnalyst('stat-model-1');
    const t = await app({ analyst: engine });
    const user = await signIn(t, { credits: 3 });
    const id = await create(t, user);
    expect((await detail(t, user, id)).ai_model).toBe('stat-model-1');
    Object.assign(engine, { modelName: 'stat-model-1' });
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
    const pronostic = await detail(t, user, id);
    expect(pronostic.status).toBe('success');
    expect(pronostic.result).toMatchObject({ market: '1x2', pick: 'home' });
    expect(pronostic.ai_model).toBe('stat-model-1');
    expect(await t.app.runtime.analysisWorker.runOnce()).toBeUndefined();
  });

  it('stores the result without a settlement key of the analyst: only the settlement writes one', async () => {
    const engine = fixedAnalyst();
    const analyse = engine.analyse.bind(engine);
    Object.assign(engine, {
      analyse: async (...args: Parameters<typeof analyse>) => {
        const outcome = await analyse(...args);
        return { ...outcome, result: { ...outcome.result, settlement: { outcome: 'won', score: '9-0' } } };
      },
    });
    const t = await app({ analyst: engine });
    const user = await signIn(t, { credits: 1 });
    const id = await create(t, user);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
    const result = (await detail(t, user, id)).result;
    expect(result).toMatchObject({ market: '1x2', pick: 'home' });
    expect(result).not.toHaveProperty('settlement');
  });

  it('lets go of a finished analysis: its signal is collected long before its lease would run out', async () => {
    setFlagsFromString('--expose-gc');
    const collectGarbage = runInNewContext('gc') as () => void;
    const engine = fixedAnalyst();
    const analyse = engine.analyse.bind(engine);
    let seen: WeakRef<AbortSignal> | undefined;
    Object.assign(engine, {
      analyse: async (...args: Parameters<typeof analyse>) => {
        seen = new WeakRef(args[2] as AbortSignal);
        return analyse(...args);
      },
    });
    const t = await app({ analyst: engine, workerOptions: { leaseSeconds: 3600 } });
    const user = await signIn(t, { credits: 1 });
    await create(t, user);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
    expect(seen).toBeDefined();
    for (let i = 0; i < 5 && seen?.deref() !== undefined; i++) {
      await new Promise((resolve) => setImmediate(resolve));
      collectGarbage();
    }
    // AbortSignal.any with AbortSignal.timeout kept it (and its listeners) for the whole hour.
    expect(seen?.deref()).toBeUndefined();
  });

  it('wakes at once on a new row when running (no poll needed)', async () => {
    const t = await app({ analyst: fixedAnalyst(), workerOptions: { pollMs: 3_600_000 } });
    await t.app.runtime.analysisWorker.start();
    const user = await signIn(t, { credits: 1 });
    const id = await create(t, user);
    for (let i = 0; i < 100 && (await rowOf(t, id)).status === 'processing'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await rowOf(t, id)).status).toBe('success');
    await t.app.runtime.analysisWorker.stop();
  });

  it('retries with backoff, then cancels and refunds in one go after the last try', async () => {
    const engine = failingAnalyst();
    const t = await app({ analyst: engine });
    const user = await signIn(t, { credits: 5 });
    const id = await create(t, user, 3);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('retry');
    // Not due again until the backoff has passed.
    expect(await t.app.runtime.analysisWorker.runOnce()).toBeUndefined();
    t.clock.advanceSeconds(2);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('retry');
    t.clock.advanceSeconds(9);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBeUndefined();
    t.clock.advanceSeconds(1);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('cancelled');
    expect(engine.calls).toBe(3);
    const pronostic = await detail(t, user, id);
    expect(pronostic.status).toBe('cancelled');
    expect(pronostic.result).toEqual({ reason: 'analysis_failed', message: expect.any(String) });
    const operations = await t.app.db
      .select()
      .from(walletOperations)
      .where(eq(walletOperations.userId, user.id));
    expect(operations.map((operation) => [operation.type, operation.amount])).toEqual([
      ['admin_adjustment', 5],
      ['pronostic_debit', -2],
      ['pronostic_refund', 2],
    ]);
    const list = await t.app.inject({ method: 'GET', url: '/api/user/pronostics', headers: user.headers });
    expect(list.json().data.pronostics[0].status).toBe('cancelled');
  });

  it('cancels and refunds, with a clear reason, a job whose type the engine does not know', async () => {
    const engine = fixedAnalyst();
    const t = await app({ analyst: engine });
    // A type added in the back office before the engine answers it (the slug column has no SQL check).
    const [type] = await t.app.db
      .insert(pronosticTypes)
      .values({
        name: 'Corners',
        slug: 'corners-9-5' as never,
        description: 'Plus ou moins de 9,5 corners',
        difficulty: 2,
      })
      .returning({ id: pronosticTypes.id });
    const user = await signIn(t, { credits: 4 });
    const id = await create(t, user, type!.id);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('cancelled');
    expect(engine.calls).toBe(0);
    const pronostic = await detail(t, user, id);
    expect(pronostic.status).toBe('cancelled');
    expect(pronostic.result).toEqual({
      reason: 'unsupported_type',
      message: expect.stringContaining('pas encore pris en charge'),
    });
    const operations = await operationsOf(t, user);
    expect(operations.at(-1)).toEqual(['pronostic_refund', -operations.at(-2)![1]!]);
    expect(operations.map(([type]) => type)).toEqual([
      'admin_adjustment',
      'pronostic_debit',
      'pronostic_refund',
    ]);
    expect((await rowOf(t, id)).lastError).toContain('corners-9-5');
  });

  it('cancels and refunds a row still processing past its 15-minute deadline', async () => {
    const engine = failingAnalyst();
    const t = await app({ analyst: engine, workerOptions: { backoffSeconds: [3600] } });
    const user = await signIn(t, { credits: 1 });
    const id = await create(t, user);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('retry');
    t.clock.advanceSeconds(15 * 60);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('cancelled');
    // Fifteen idle minutes also expired the token: read the row itself.
    expect((await rowOf(t, id)).result).toMatchObject({ reason: 'timeout' });
    expect(engine.calls).toBe(1);
  });

  it('finishes a soft-deleted row as it would have, refund included', async () => {
    const t = await app({ analyst: failingAnalyst(), workerOptions: { maxAttempts: 1 } });
    const user = await signIn(t, { credits: 1 });
    const id = await create(t, user);
    await t.app.inject({ method: 'DELETE', url: `/api/user/pronostic/${id}`, headers: user.headers });
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('cancelled');
    expect((await rowOf(t, id)).status).toBe('cancelled');
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/user/pronostic/${id}`,
      headers: user.headers,
    });
    expect(after.statusCode).toBe(404);
    expect((await t.app.services.users.findById(user.id))?.creditsBalance).toBe(1);
  });

  it('a worker that dies mid-job leaves the row to another once the lease runs out', async () => {
    const t = await app({ analyst: fixedAnalyst() });
    const user = await signIn(t, { credits: 1 });
    const id = await create(t, user);
    const now = t.clock.now();
    // A worker claims the row and is never heard of again.
    const dead = await t.app.services.analysisJobs.claimNext(now, new Date(now.getTime() + 60_000));
    expect(dead?.id).toBe(id);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBeUndefined();
    t.clock.advanceSeconds(61);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
    expect((await rowOf(t, id)).attempts).toBe(2);
    // Its late write, fenced by the attempt it claimed, changes nothing.
    expect(
      await t.app.services.analysisJobs.succeed(dead!, { result: { late: true }, aiModel: 'x' }, now),
    ).toBe(false);
    expect((await rowOf(t, id)).result).toMatchObject({ market: '1x2' });
  });

  it('on shutdown releases the row it is analysing, untried', async () => {
    const engine = hangingAnalyst();
    const t = await app({ analyst: engine, workerOptions: { stopGraceMs: 50, pollMs: 3_600_000 } });
    const user = await signIn(t, { credits: 1 });
    const id = await create(t, user);
    await t.app.runtime.analysisWorker.start();
    for (let i = 0; i < 100 && engine.started === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(engine.started).toBe(1);
    await t.app.runtime.analysisWorker.stop();
    const row = await rowOf(t, id);
    expect(row.status).toBe('processing');
    expect(row.leaseUntil).toBeNull();
    expect(row.attempts).toBe(0);
  });

  it('cancels and refunds at claim a row claimed more often than it may be tried, without running it', async () => {
    const engine = fixedAnalyst();
    const t = await app({ analyst: engine });
    const user = await signIn(t, { credits: 3 });
    const id = await create(t, user, 3);
    // Three workers in turn claim the row and die with it (the lease runs out each time).
    for (let claim = 1; claim <= t.app.runtime.analysisWorker.options.maxAttempts; claim++) {
      const now = t.clock.now();
      expect((await t.app.services.analysisJobs.claimNext(now, new Date(now.getTime() + 60_000)))?.id).toBe(
        id,
      );
      t.clock.advanceSeconds(61);
    }
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('cancelled');
    expect(engine.calls).toBe(0);
    const row = await rowOf(t, id);
    expect(row.status).toBe('cancelled');
    expect(row.result).toEqual({ reason: 'analysis_failed', message: expect.any(String) });
    expect(await operationsOf(t, user)).toEqual([
      ['admin_adjustment', 3],
      ['pronostic_debit', -2],
      ['pronostic_refund', 2],
    ]);
  });

  it('with a concurrency of 2, a hanging analysis does not stop another row from being analysed', async () => {
    const engine = hangingOn('Lent FC');
    const t = await app({
      analyst: engine,
      config: { workerConcurrency: 2 },
      workerOptions: { pollMs: 3_600_000, stopGraceMs: 50 },
    });
    const user = await signIn(t, { credits: 2 });
    const stuck = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: 1, teams_details: { home: 'Lent FC', away: 'Chelsea' } },
    });
    const stuckId = stuck.json().data.pronostic.id as number;
    await t.app.runtime.analysisWorker.start();
    for (let i = 0; i < 250 && engine.hanging === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(engine.hanging).toBe(1);
    const id = await create(t, user);
    expect((await settled(t, id)).status).toBe('success');
    await t.app.runtime.analysisWorker.stop();
    const released = await rowOf(t, stuckId);
    expect(released.status).toBe('processing');
    expect(released.attempts).toBe(0);
  });

  it('a slow LLM past the narrative deadline leaves the statistical text: success, no retry, no refund', async () => {
    const fake = await startFakeOpenAi();
    fake.modes = ['slow'];
    fake.slowMs = 60_000;
    try {
      // The lease is far longer than the narrative deadline: only the deadline can end the wait.
      const t = await app({
        config: {
          aiDriver: 'openai',
          ai: {
            baseUrl: fake.baseUrl,
            apiKey: OPENAI_API_KEY,
            model: OPENAI_MODEL,
            timeoutMs: 30_000,
            narrativeDeadlineMs: 300,
          },
        },
        workerOptions: { leaseSeconds: 20 },
      });
      const user = await signIn(t, { credits: 1 });
      const id = await create(t, user);
      expect((await rowOf(t, id)).aiModel).toBe(`dixon-coles-7+${OPENAI_MODEL}`);
      expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
      const row = await rowOf(t, id);
      expect(row.status).toBe('success');
      expect(row.aiModel).toBe('dixon-coles-7');
      expect(row.attempts).toBe(1);
      expect(row.result?.analysis).toEqual(expect.any(String));
      expect(row.result?.analysis).not.toBe(fake.analysis);
      expect(fake.requests).toHaveLength(1);
      expect(await operationsOf(t, user)).toEqual([
        ['admin_adjustment', 1],
        ['pronostic_debit', -1],
      ]);
    } finally {
      await fake.close();
    }
  });

  it('two workers on one database never analyse the same row twice', async () => {
    const database = await createTestDatabase();
    const t = await app({ database, analyst: fixedAnalyst() });
    const user = await signIn(t, { credits: 40 });
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push(await create(t, user));
    // Two independent workers, each with its own connection pool on PostgreSQL.
    const url = usingPostgres() ? await postgresUrlOf(t) : undefined;
    const second = url ? await openDatabase({ url, poolSize: 4 }) : database.handle;
    const seen = new Map<number, number>();
    const counting = (name: string) => ({
      modelName: name,
      async analyse(details: Record<string, unknown>) {
        const key = Number(details.n ?? 0);
        seen.set(key, (seen.get(key) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 1));
        return { result: { market: '1x2' }, aiModel: name };
      },
    });
    await t.app.db.execute(
      sql`UPDATE pronostics SET teams_details = (teams_details::jsonb || jsonb_build_object('n', id))::json`,
    );
    const workers = [
      createAnalysisWorker({
        database: database.handle,
        jobs: createAnalysisJobs({
          db: database.handle.db,
          ledger: t.app.services.ledger,
          events: t.app.services.events,
        }),
        analyst: counting('a'),
        clock: t.clock,
        logger: t.app.log,
      }),
      createAnalysisWorker({
        database: second,
        jobs: createAnalysisJobs({
          db: second.db,
          ledger: t.app.services.ledger,
          events: t.app.services.events,
        }),
        analyst: counting('b'),
        clock: t.clock,
        logger: t.app.log,
      }),
    ];
    const processed = await Promise.all(workers.map((worker) => worker.drain()));
    expect(processed[0]! + processed[1]!).toBe(40);
    expect([...seen.values()].every((count) => count === 1)).toBe(true);
    expect(seen.size).toBe(40);
    const statuses = await t.app.db.select({ status: pronostics.status }).from(pronostics);
    expect(statuses.every((row) => row.status === 'success')).toBe(true);
    if (second !== database.handle) await second.close();
    open.splice(open.indexOf(t), 1);
    await expectLedgerConsistent(t);
    await t.close();
    await database.drop();
  });
});
