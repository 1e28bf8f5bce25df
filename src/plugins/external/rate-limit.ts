// Request-rate limits per client network (IPv4 address, IPv6 /64), through @fastify/rate-limit's
// counters: a general flood guard checked app-wide in `onRequest` before authentication, so every
// request (routes, unknown paths, wrong methods, guessed tokens) is counted before any database
// work; and tighter per-route limits declared in route config (e.g. code verification). Counters
// live in Redis when REDIS_URL is set (shared by every API process), else in memory, timed by the
// app's clock so tests move time instead of sleeping. RATE_LIMIT=off lifts them all.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Clock } from '../../lib/clock.js';
import { RateLimited } from '../../lib/errors.js';
import { clientNetwork } from '../../lib/network.js';

interface Window {
  count: number;
  startedAt: number;
}

type IncrCallback = (error: Error | null, result: { current: number; ttl: number }) => void;

/** A fixed-window counter store for @fastify/rate-limit that asks our clock for the time. */
export function clockedStore(clock: Clock, maxKeys = 50_000) {
  return class ClockedStore {
    readonly windows = new Map<string, Window>();

    incr(key: string, callback: IncrCallback, timeWindow: number): void {
      const now = clock.now().getTime();
      let window = this.windows.get(key);
      if (!window || window.startedAt + timeWindow <= now) {
        window = { count: 0, startedAt: now };
        this.windows.delete(key);
        // Oldest first (insertion order): forget the stalest key when full rather than grow unbounded.
        if (this.windows.size >= maxKeys) this.windows.delete(this.windows.keys().next().value as string);
        this.windows.set(key, window);
      }
      window.count += 1;
      callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now });
    }

    read(key: string, callback: IncrCallback, timeWindow: number): void {
      const now = clock.now().getTime();
      const window = this.windows.get(key);
      if (!window || window.startedAt + timeWindow <= now) callback(null, { current: 0, ttl: 0 });
      else callback(null, { current: window.count, ttl: window.startedAt + timeWindow - now });
    }

    child(): ClockedStore {
      return new ClockedStore();
    }
  };
}

/** Waits for Redis before the first request is counted; an unreachable Redis only lets requests through. */
function whenConnected(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const settle = () => {
      redis.off('ready', settle);
      redis.off('error', settle);
      resolve();
    };
    redis.once('ready', settle);
    redis.once('error', settle);
  });
}

async function connectRedis(app: FastifyInstance, url: string): Promise<Redis> {
  // Loaded only when a Redis is configured: a process without one does not carry the client.
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: false,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
  });
  // One line when Redis goes away, not one per reconnection attempt.
  let reachable = true;
  redis.on('ready', () => {
    reachable = true;
  });
  redis.on('error', (error) => {
    if (!reachable) return;
    reachable = false;
    app.log.warn({ err: error }, 'rate limits: Redis unreachable, requests are not counted until it answers');
  });
  app.addHook('onReady', () => whenConnected(redis));
  app.addHook('onClose', async () => {
    redis.disconnect();
  });
  return redis;
}

async function rateLimitPlugin(app: FastifyInstance): Promise<void> {
  const { config } = app;
  if (!config.rateLimit) return;
  const redis = config.redisUrl ? await connectRedis(app, config.redisUrl) : undefined;
  await app.register(rateLimit, {
    // Not per route: the plugin's route hooks run after app-wide hooks such as auth. Only routes
    // with their own `config.rateLimit` get one (a second, tighter counter).
    global: false,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: 'pronostics-rl:' } : { store: clockedStore(app.clock) }),
    // A limiter that cannot reach Redis lets requests through rather than take the API down.
    skipOnError: true,
    keyGenerator: (request) => clientNetwork(request.ip),
    errorResponseBuilder: (_request, context) => new RateLimited(Math.ceil(context.ttl / 1000)),
  });
  const generalLimit = app.createRateLimit();
  // Registered before the auth plugin, so it runs first; app-wide hooks also run for the
  // not-found handler (404 and 405).
  app.addHook('onRequest', async (request, reply) => {
    const limit = await generalLimit(request);
    if (limit.isAllowed) return;
    if (limit.isExceeded) throw new RateLimited(limit.ttlInSeconds);
    // The headers the plugin's own hook sends; a route's tighter limit replaces them with its own.
    reply.headers({
      'x-ratelimit-limit': limit.max,
      'x-ratelimit-remaining': limit.remaining,
      'x-ratelimit-reset': limit.ttlInSeconds,
    });
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['context'] });
