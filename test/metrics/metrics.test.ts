// GET /metrics: Prometheus text behind METRICS_TOKEN, or on METRICS_PORT (127.0.0.1, its own
// server); the request histogram labelled by route pattern; the backlogs read from the database,
// cached between scrapes.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bench/service-process.js';
import { payments, payouts, pronostics, withdrawals } from '../../src/db/schema/index.js';
import {
  createTestApp,
  createTestDatabase,
  type SignedIn,
  signIn,
  type TestApp,
  usingPostgres,
} from '../helpers.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const auth = { authorization: `Bearer ${TOKEN}` };

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The text exposition format, strictly: every line a comment or `name{labels} value`. */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  const line = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|NaN|Nan|[+-]Inf)$/;
  const label = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
  // prom-client writes NaN as `Nan`, which Prometheus reads (its float parser ignores case).
  for (const raw of text.split('\n')) {
    if (raw === '' || raw.startsWith('# HELP ') || raw.startsWith('# TYPE ')) continue;
    const match = line.exec(raw);
    if (!match) throw new Error(`not an exposition line: ${raw}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(label)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

const sampleOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find(
    (sample) =>
      sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
  )?.value;

async function scrape(t: TestApp): Promise<Sample[]> {
  const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: auth });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(response.body);
}

describe('without METRICS_TOKEN or METRICS_PORT', () => {
  it('has no metrics route (404 in the envelope)', async () => {
    const t = await createTestApp();
    try {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: auth });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ user: null, data: [] });
      expect(t.app.services.metrics).toBeUndefined();
    } finally {
      await t.close();
    }
  });
});

describe('with METRICS_TOKEN', () => {
  let t: TestApp;
  let user: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({ config: { metricsToken: TOKEN } });
    user = await signIn(t);
  });
  afterAll(() => t.close());

  it('answers only the token, as a bearer', async () => {
    const asked = (authorization?: string) =>
      t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
    for (const wrong of [
      undefined,
      TOKEN,
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      'Bearer ',
      `Bearer ${user.token}`,
    ]) {
      const response = await asked(wrong);
      expect(response.statusCode, String(wrong)).toBe(401);
      expect(response.json()).toEqual({ user: null, message: 'Non authentifié.', data: [], errors: [] });
    }
    expect((await asked(`Bearer ${TOKEN}`)).statusCode).toBe(200);
    expect((await asked(`bearer  ${TOKEN} `)).statusCode).toBe(200);
  });

  it('is parseable text with the process figures', async () => {
    const samples = await scrape(t);
    expect(sampleOf(samples, 'process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(sampleOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10 * 2 ** 20);
    expect(sampleOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(sampleOf(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sampleOf(samples, 'pronostics_db_pool_connections', { state: 'max' })).toBe(
      usingPostgres() ? 20 : 1,
    );
    expect(sampleOf(samples, 'pronostics_db_pool_acquires_total')).toBeGreaterThan(0);
    expect(sampleOf(samples, 'pronostics_db_pool_waiting')).toBeGreaterThanOrEqual(0);
  });

  it('records each request under its route pattern and status, never the raw URL', async () => {
    const before = await scrape(t);
    const detail = { method: 'GET', route: '/api/user/pronostic/:id', status_code: '404' };
    const count = (samples: Sample[], labels: Record<string, string>) =>
      sampleOf(samples, 'http_request_duration_seconds_count', labels) ?? 0;
    for (const id of [987654, 987655]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/user/pronostic/${id}`,
        headers: user.headers,
      });
      expect(response.statusCode).toBe(404);
    }
    await t.app.inject({ method: 'GET', url: '/api/user/pronostic/987656' });
    expect((await t.app.inject({ method: 'GET', url: '/no/such/path-424242' })).statusCode).toBe(404);
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: auth });
    const after = parseExposition(response.body);
    expect(count(after, detail) - count(before, detail)).toBe(2);
    expect(
      count(after, { ...detail, status_code: '401' }) - count(before, { ...detail, status_code: '401' }),
    ).toBe(1);
    expect(sampleOf(after, 'http_request_duration_seconds_sum', detail)).toBeGreaterThan(0);
    const unmatched = { method: 'GET', route: 'unmatched', status_code: '404' };
    expect(count(after, unmatched) - count(before, unmatched)).toBe(1);
    expect(response.body).not.toMatch(/98765|424242/);
    // A HEAD (Fastify's automatic twin of a GET) is its own series, counted once.
    const head = { method: 'HEAD', route: '/api/', status_code: '200' };
    const get = { ...head, method: 'GET' };
    expect((await t.app.inject({ method: 'HEAD', url: '/api/' })).statusCode).toBe(200);
    const again = parseExposition(
      (await t.app.inject({ method: 'GET', url: '/metrics', headers: auth })).body,
    );
    expect(count(again, head) - count(after, head)).toBe(1);
    expect(count(again, get) - count(after, get)).toBe(0);
    // The buckets are cumulative and end with +Inf, which equals the count.
    expect(sampleOf(after, 'http_request_duration_seconds_bucket', { ...detail, le: '+Inf' })).toBe(
      count(after, detail),
    );
  });
});

describe('the backlogs', () => {
  let t: TestApp;
  let user: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({ config: { metricsToken: TOKEN } });
    user = await signIn(t);
  });
  afterAll(() => t.close());

  const secondsAgo = (seconds: number) => new Date(t.clock.now().getTime() - seconds * 1000).toISOString();

  async function pendingPayment(seconds: number) {
    await t.app.db.insert(payments).values({
      userId: user.id,
      packId: 1,
      reference: `metrics-${seconds}-${Math.random()}`,
      provider: 'sandbox',
      amount: 500,
      credits: 5,
      payerPhone: user.phone,
      channel: 'cm.mtn',
      expiresAt: secondsAgo(-3600),
      createdAt: secondsAgo(seconds),
    });
  }

  it('shows seeded queue, payments, payouts and SMS budget use, cached for 10 s', async () => {
    for (const seconds of [120, 30]) {
      await t.app.db.insert(pronostics).values({
        userId: user.id,
        typeId: 1,
        creditsCost: 1,
        teamsDetails: { home: 'A', away: 'B' },
        aiModel: 'x',
        searchText: 'x',
        runAfter: secondsAgo(0),
        deadlineAt: secondsAgo(-60),
        createdAt: secondsAgo(seconds),
      });
    }
    await pendingPayment(300);
    await pendingPayment(60);
    const [withdrawal] = await t.app.db
      .insert(withdrawals)
      .values({
        userId: user.id,
        amount: 5000,
        phone: user.phone,
        channel: 'cm.mtn',
        operator: { name: 'MTN', icon: 'mtn' },
      })
      .returning();
    await t.app.db.insert(payouts).values({
      withdrawalId: withdrawal!.id,
      provider: 'sandbox',
      reference: `wd-${withdrawal!.id}`,
      amount: 5000,
      phone: user.phone,
      channel: 'cm.mtn',
      createAttemptedAt: secondsAgo(45),
      deadlineAt: secondsAgo(-3600),
      createdAt: secondsAgo(45),
    });

    let samples = await scrape(t);
    expect(sampleOf(samples, 'pronostics_analysis_queue')).toBe(2);
    expect(sampleOf(samples, 'pronostics_analysis_queue_oldest_seconds')).toBeCloseTo(120, 0);
    expect(sampleOf(samples, 'pronostics_payments_pending')).toBe(2);
    expect(sampleOf(samples, 'pronostics_payments_pending_oldest_seconds')).toBeCloseTo(300, 0);
    expect(sampleOf(samples, 'pronostics_payouts_pending')).toBe(1);
    expect(sampleOf(samples, 'pronostics_payouts_pending_oldest_seconds')).toBeCloseTo(45, 0);
    // signIn sent one code to a Cameroonian number.
    expect(sampleOf(samples, 'pronostics_sms_budget_used', { budget: '+237' })).toBe(1);
    expect(sampleOf(samples, 'pronostics_sms_budget_used', { budget: 'global' })).toBe(1);
    expect(sampleOf(samples, 'pronostics_sms_budget_limit', { budget: 'global' })).toBe(
      t.config.otpGlobalHourlyBudget,
    );
    expect(sampleOf(samples, 'pronostics_sms_budget_limit', { budget: '+237' })).toBe(
      t.config.otpCountryHourlyBudget,
    );

    // Within the cache's 10 s, a new payment is not read yet; after them, it is.
    await pendingPayment(10);
    t.clock.advanceSeconds(9);
    samples = await scrape(t);
    expect(sampleOf(samples, 'pronostics_payments_pending')).toBe(2);
    t.clock.advanceSeconds(2);
    samples = await scrape(t);
    expect(sampleOf(samples, 'pronostics_payments_pending')).toBe(3);
    expect(sampleOf(samples, 'pronostics_payments_pending_oldest_seconds')).toBeCloseTo(311, 0);
    // An hour later the SMS left the budget's window.
    t.clock.advanceSeconds(3600);
    samples = await scrape(t);
    expect(sampleOf(samples, 'pronostics_sms_budget_used', { budget: 'global' })).toBe(0);
    expect(sampleOf(samples, 'pronostics_sms_budget_used', { budget: '+237' })).toBeUndefined();
  });
});

describe('with METRICS_PORT', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('serves GET /metrics on 127.0.0.1 without a token, nothing else, and closes with the app', async () => {
    const port = await freePort();
    t = await createTestApp({ config: { metricsPort: port } });
    const url = `http://127.0.0.1:${port}`;
    const response = await fetch(`${url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(sampleOf(parseExposition(await response.text()), 'process_resident_memory_bytes')).toBeGreaterThan(
      0,
    );
    expect((await fetch(`${url}/metrics`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(404);
    // No token set: the service's own port has no metrics route.
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    await t.close();
    t = undefined;
    await expect(fetch(`${url}/metrics`)).rejects.toThrow();
  });

  it('a port already taken stops the start', async () => {
    const port = await freePort();
    const first = await createTestApp({ config: { metricsPort: port } });
    const database = await createTestDatabase();
    try {
      await expect(createTestApp({ config: { metricsPort: port }, database })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
      await database.drop();
    }
  });
});
