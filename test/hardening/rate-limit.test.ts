// The general request-rate limit (RATE_LIMIT_PER_MINUTE) counts every request per client network
// before authentication and before any database work: guessed tokens, unknown paths, wrong methods.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientNetwork } from '../../src/lib/network.js';
import {
  countingDatabase,
  createTestApp,
  createTestDatabase,
  type TestApp,
  type TestDatabase,
} from '../helpers.js';

const LIMIT = 5;
/** A well-formed token that no one was given: the app looks it up. */
const wrongToken = (i: number) => ({ authorization: `Bearer ${'x'.repeat(40)}${i}` });

describe(`general limit: ${LIMIT} requests a minute per client network`, () => {
  let t: TestApp;
  let database: TestDatabase;
  let queries: () => number;
  beforeAll(async () => {
    ({ database, queries } = await countingDatabase());
    t = await createTestApp({ database, config: { rateLimitPerMinute: LIMIT } });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  const get = (url: string, ip: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, remoteAddress: ip, headers });

  it('wrong tokens: the 429 comes before the next token lookup, with the envelope and Retry-After', async () => {
    const ip = '198.51.100.10';
    for (let i = 0; i < LIMIT; i++) {
      const before = queries();
      const response = await get('/api/user/pronostics', ip, wrongToken(i));
      expect(response.statusCode).toBe(401);
      // Each wrong token was looked up: the counter sees the app's queries.
      expect(queries()).toBeGreaterThan(before);
    }
    const before = queries();
    const limited = await get('/api/user/pronostics', ip, wrongToken(LIMIT));
    expect(limited.statusCode).toBe(429);
    expect(queries()).toBe(before);
    expect(limited.headers['retry-after']).toBe('60');
    expect(limited.json()).toEqual({
      user: null,
      message: 'Trop de requêtes. Réessayez plus tard.',
      data: { retry_after: 60 },
      errors: [],
    });
  });

  it('unknown paths and wrong methods are counted and limited', async () => {
    const ip = '198.51.100.11';
    for (let i = 0; i < LIMIT - 1; i++) expect((await get(`/api/nope/${i}`, ip)).statusCode).toBe(404);
    expect((await get('/api/otp/generate', ip)).statusCode).toBe(405);
    expect((await get('/api/nope/again', ip)).statusCode).toBe(429);
    const post = await t.app.inject({ method: 'POST', url: '/api/unknown', remoteAddress: ip });
    expect(post.statusCode).toBe(429);
  });

  it('another network keeps its own count; the window ends after a minute', async () => {
    const ip = '198.51.100.12';
    for (let i = 0; i <= LIMIT; i++) await get('/api/nope', ip);
    expect((await get('/api/nope', ip)).statusCode).toBe(429);
    expect((await get('/api/nope', '198.51.100.13')).statusCode).toBe(404);
    t.clock.advanceSeconds(60);
    expect((await get('/api/nope', ip)).statusCode).toBe(404);
  });

  it('IPv6 addresses of one /64 share a counter; the next /64 does not', async () => {
    for (let i = 1; i <= LIMIT; i++) {
      expect((await get('/api/nope', `2001:db8:10:20::${i}`)).statusCode).toBe(404);
    }
    expect((await get('/api/nope', '2001:db8:10:20:ffff:1:2:3')).statusCode).toBe(429);
    expect((await get('/api/nope', '2001:db8:10:21::1')).statusCode).toBe(404);
  });

  it('an IPv4-mapped IPv6 address counts as its IPv4 address', async () => {
    for (let i = 0; i < LIMIT; i++) await get('/api/nope', '198.51.100.14');
    expect((await get('/api/nope', '::ffff:198.51.100.14')).statusCode).toBe(429);
  });
});

describe('a route limit still applies, per network, beside the general one', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('the 31st code verification from one IPv6 /64 is a 429 (without errors key)', async () => {
    const verify = (ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/otp/verify',
        remoteAddress: ip,
        payload: { phone: '+237670000001', code: '000000' },
      });
    for (let i = 1; i <= 30; i++) expect((await verify(`2001:db8:30:40::${i}`)).statusCode).toBe(400);
    const limited = await verify('2001:db8:30:40::ffff');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ user: null, message: expect.any(String), data: { retry_after: 600 } });
    expect((await verify('2001:db8:30:41::1')).statusCode).toBe(400);
  });
});

describe('RATE_LIMIT=off', () => {
  it('lifts the general limit', async () => {
    const t = await createTestApp({ config: { rateLimit: false, rateLimitPerMinute: 1 } });
    try {
      for (let i = 0; i < 3; i++) {
        expect((await t.app.inject({ method: 'GET', url: '/api/nope' })).statusCode).toBe(404);
      }
    } finally {
      await t.close();
    }
  });
});

describe('with REDIS_URL the count is shared by every API process', () => {
  const redisUrl = 'redis://127.0.0.1:6379';
  // A network of its own per run (2001:db8:<random>::/64), so runs never share a Redis counter.
  const prefix = `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
  let redis: Redis;
  let database: TestDatabase;
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    // Redis runs here and in CI: an unreachable one fails the test rather than skipping it.
    await redis.connect().catch((error: unknown) => {
      throw new Error(`Redis is not reachable at ${redisUrl}: ${String(error)}`);
    });
    database = await createTestDatabase();
    const config = { redisUrl, rateLimitPerMinute: LIMIT };
    first = await createTestApp({ database, config });
    second = await createTestApp({ database, config });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.drop();
    await redis.del(`pronostics-rl:${clientNetwork(`${prefix}::1`)}`);
    redis.disconnect();
  });

  it('requests to two app instances draw on one counter', async () => {
    const get = (app: TestApp, i: number) =>
      app.app.inject({
        method: 'GET',
        url: '/api/user/pronostics',
        remoteAddress: `${prefix}::${i + 1}`,
        headers: wrongToken(i),
      });
    for (let i = 0; i < LIMIT; i++) {
      expect((await get(i % 2 === 0 ? first : second, i)).statusCode).toBe(401);
    }
    expect((await get(first, LIMIT)).statusCode).toBe(429);
    expect((await get(second, LIMIT + 1)).statusCode).toBe(429);
  });
});
