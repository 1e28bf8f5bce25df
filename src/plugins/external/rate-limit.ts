// Request-rate limits per client IP (@fastify/rate-limit): a general flood guard on every route,
// and tighter per-route limits declared in route config (e.g. code verification). Counters live in
// Redis when REDIS_URL is set (shared by every API process), else in memory, timed by the app's
// clock so tests move time instead of sleeping. RATE_LIMIT=off lifts them all.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { Clock } from '../../lib/clock.js';
import { RateLimited } from '../../lib/errors.js';

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

async function rateLimitPlugin(app: FastifyInstance): Promise<void> {
  const { config } = app;
  if (!config.rateLimit) return;
  let redis: Redis | undefined;
  if (config.redisUrl) {
    redis = new Redis(config.redisUrl, {
      lazyConnect: false,
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
    });
    app.addHook('onClose', async () => {
      redis?.disconnect();
    });
  }
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: 'pronostics-rl:' } : { store: clockedStore(app.clock) }),
    // A limiter that cannot reach Redis lets requests through rather than take the API down.
    skipOnError: true,
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) => new RateLimited(Math.ceil(context.ttl / 1000)),
  });
}

export default fp(rateLimitPlugin, { name: 'rate-limit', dependencies: ['context'] });
