// The service's live figures in Prometheus's text format (prom-client), for `GET /metrics` and the
// metrics port: the process (CPU seconds, resident memory, heap, event-loop delay: prom-client's
// default collectors), each request's duration by route pattern and status, the database pool's
// waits, and four backlogs read from the database when scraped (the analysis queue, pending
// payments, pending payouts, the SMS budgets' use). Each backlog is cached for `cacheSeconds`
// and read by one query at a time, so a storm of scrapes costs at most one query each per interval.
// The module owns no table: the backlogs come from the owning modules' services.
import type { FastifyBaseLogger } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';

/** Rows waiting, and when the oldest was created (epoch seconds; null when none). */
export interface Backlog {
  count: number;
  oldestAt: number | null;
}

export interface SmsBudgetUse {
  /** `+<calling code>` or `global`. */
  budget: string;
  used: number;
  limit: number;
}

/** What the metrics read from the other modules (their services satisfy these). */
export interface MetricsSources {
  analysis: { backlog(): Promise<Backlog> };
  payments: { pendingBacklog(): Promise<Backlog> };
  payouts: { pendingBacklog(): Promise<Backlog> };
  sms: { smsBudgetUse(): Promise<SmsBudgetUse[]> };
  /** Scheduled backups of this process (BACKUP_INTERVAL_HOURS): how many succeeded and failed. */
  backups: {
    backupStats(): { succeeded: number; failed: number; lastSuccessAt: number | null };
  };
  /** The push sender of this process: pruning paused now (a wrong push project), devices kept. */
  push: { pruningStats(): { paused: boolean; held: number; pauses: number } };
}

export interface MetricsDeps {
  clock: Clock;
  logger: FastifyBaseLogger;
  database: { poolStats(): PoolStats };
  sources: MetricsSources;
  /** How long a backlog read from the database is answered again (seconds). */
  cacheSeconds?: number;
}

/** Request durations, seconds: from a cached token answer to a slow page under load. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Records one request of a route: its status code and duration in seconds. */
export type RequestRecorder = (statusCode: number, seconds: number) => void;

export function createMetricsService(deps: MetricsDeps) {
  /**
   * Built on first use: a process that never serves metrics (a CLI command reading the same
   * environment) starts no collector.
   */
  let built: ReturnType<typeof build> | undefined;
  const registryParts = () => {
    built ??= build(deps);
    return built;
  };

  return {
    /**
     * The recorder of one route (its method and pattern, never the raw URL): it keeps one
     * histogram child per status code, so a request costs one observation.
     */
    routeRecorder(method: string, route: string): RequestRecorder {
      const children = new Map<number, { observe(value: number): void }>();
      return (statusCode, seconds) => {
        let child = children.get(statusCode);
        if (!child) {
          child = registryParts().requests.labels(method, route, String(statusCode));
          children.set(statusCode, child);
        }
        child.observe(seconds);
      };
    },

    /** Counts one action refused for responsible play, by its reason (issue 54). */
    countPlayRefusal(reason: string): void {
      registryParts().playRefusals.labels(reason).inc();
    },

    /** Every metric now, in the text format, with its content type. */
    async render(): Promise<{ contentType: string; body: string }> {
      const { registry } = registryParts();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}

/**
 * The registry and every metric in it, in the order a scrape lists them: the process's, the
 * requests', the pool's, the backlogs', the SMS budgets', the backups', the push pruning's.
 */
function build(deps: MetricsDeps) {
  const { sources } = deps;
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request read to its answer sent, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: DURATION_BUCKETS,
    registers,
  });
  const readErrors = new Counter({
    name: 'pronostics_metrics_read_errors_total',
    help: 'Backlog reads that failed at scrape time (the gauges keep their last value).',
    labelNames: ['source'] as const,
    registers,
  });
  poolMetrics(registers, deps.database);
  const cached = cachedReads(deps, readErrors);
  const backlog = (name: string, what: string, read: () => Promise<Backlog | undefined>) =>
    backlogGauges(registers, deps.clock, name, what, read);
  backlog(
    'pronostics_analysis_queue',
    'Pronostics waiting for their analysis (status processing)',
    cached('analysis', () => sources.analysis.backlog()),
  );
  backlog(
    'pronostics_payments_pending',
    "Payments waiting for the provider's final word",
    cached('payments', () => sources.payments.pendingBacklog()),
  );
  backlog(
    'pronostics_payouts_pending',
    'Payouts not final yet',
    cached('payouts', () => sources.payouts.pendingBacklog()),
  );
  smsMetrics(
    registers,
    cached('sms', () => sources.sms.smsBudgetUse()),
  );
  backupMetrics(registers, sources.backups);
  pushMetrics(registers, sources.push);
  const playRefusals = new Counter({
    name: 'pronostics_play_refusals_total',
    help: 'Checkouts, analyses and slips refused for responsible play, by reason (age_required, under_age, limit_reached, self_excluded).',
    labelNames: ['reason'] as const,
    registers,
  });
  return { registry, requests, playRefusals };
}

type Registers = Registry[];

/** The database pool: connections by state, callers waiting, acquisitions and the time they waited. */
function poolMetrics(registers: Registers, database: MetricsDeps['database']): void {
  new Gauge({
    name: 'pronostics_db_pool_connections',
    help: 'Database connections: the most the pool opens, open now, idle now (PGlite: one).',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const stats = database.poolStats();
      this.set({ state: 'max' }, stats.max);
      this.set({ state: 'open' }, stats.open);
      this.set({ state: 'idle' }, stats.idle);
    },
  });
  new Gauge({
    name: 'pronostics_db_pool_waiting',
    help: 'Callers waiting for a database connection now (PGlite: queued behind its one connection).',
    registers,
    collect() {
      this.set(database.poolStats().waiting);
    },
  });
  new Counter({
    name: 'pronostics_db_pool_acquires_total',
    help: 'Database connections handed out (PGlite: statements and transactions let through).',
    registers,
    collect() {
      this.reset();
      this.inc(database.poolStats().acquires);
    },
  });
  new Counter({
    name: 'pronostics_db_pool_acquire_seconds_total',
    help: 'Seconds spent waiting for a database connection, in all (rate ÷ acquires rate: mean wait).',
    registers,
    collect() {
      this.reset();
      this.inc(database.poolStats().acquireSeconds);
    },
  });
}

/**
 * The owning modules' reads, made for scrapes: one read at a time, answered again for
 * `cacheSeconds`; a failed read is counted and keeps the last value.
 */
function cachedReads({ clock, logger, cacheSeconds }: MetricsDeps, readErrors: Counter<'source'>) {
  const cacheMs = (cacheSeconds ?? 10) * 1000;
  return <T>(source: string, read: () => Promise<T>): (() => Promise<T | undefined>) => {
    let value: T | undefined;
    let readAt = Number.NEGATIVE_INFINITY;
    let reading: Promise<T | undefined> | undefined;
    return () => {
      if (clock.now().getTime() - readAt < cacheMs) return Promise.resolve(value);
      reading ??= read()
        .then(
          (fresh) => {
            value = fresh;
            return fresh;
          },
          (error: unknown) => {
            readErrors.inc({ source });
            logger.warn({ err: error, source }, 'metrics: a backlog read failed');
            return value;
          },
        )
        .finally(() => {
          readAt = clock.now().getTime();
          reading = undefined;
        });
      return reading;
    };
  };
}

/** A backlog's two gauges: how many rows wait, and the age of the oldest. */
function backlogGauges(
  registers: Registers,
  clock: Clock,
  name: string,
  what: string,
  read: () => Promise<Backlog | undefined>,
): void {
  const ageOf = (backlog: Backlog) =>
    backlog.oldestAt === null ? 0 : Math.max(0, clock.now().getTime() / 1000 - backlog.oldestAt);
  new Gauge({
    name,
    help: `${what}: how many.`,
    registers,
    async collect() {
      const backlog = await read();
      if (backlog) this.set(backlog.count);
    },
  });
  new Gauge({
    name: `${name}_oldest_seconds`,
    help: `${what}: age of the oldest, in seconds (0 when none).`,
    registers,
    async collect() {
      const backlog = await read();
      if (backlog) this.set(ageOf(backlog));
    },
  });
}

/** The sign-in SMS budgets: what each used in the last hour, and its limit. */
function smsMetrics(registers: Registers, smsUse: () => Promise<SmsBudgetUse[] | undefined>): void {
  new Gauge({
    name: 'pronostics_sms_budget_used',
    help: 'Sign-in SMS reserved or sent in the last hour, per country calling code and in all.',
    labelNames: ['budget'] as const,
    registers,
    async collect() {
      const use = await smsUse();
      if (!use) return;
      this.reset();
      for (const budget of use) this.set({ budget: budget.budget }, budget.used);
    },
  });
  new Gauge({
    name: 'pronostics_sms_budget_limit',
    help: 'The hourly SMS budget of each calling code seen in the last hour, and the global one.',
    labelNames: ['budget'] as const,
    registers,
    async collect() {
      const use = await smsUse();
      if (!use) return;
      this.reset();
      for (const budget of use) this.set({ budget: budget.budget }, budget.limit);
    },
  });
}

/** This process's scheduled backups: finished by result, and the last success. */
function backupMetrics(registers: Registers, backups: MetricsSources['backups']): void {
  new Counter({
    name: 'pronostics_backups_total',
    help: 'Scheduled backups this process finished, by result (failed: not written or not verified).',
    labelNames: ['result'] as const,
    registers,
    collect() {
      const { succeeded, failed } = backups.backupStats();
      this.reset();
      this.inc({ result: 'succeeded' }, succeeded);
      this.inc({ result: 'failed' }, failed);
    },
  });
  new Gauge({
    name: 'pronostics_backup_last_success_seconds',
    help: 'When the last scheduled backup of this process was written and verified (epoch seconds; 0 before the first).',
    registers,
    collect() {
      this.set(backups.backupStats().lastSuccessAt ?? 0);
    },
  });
}

/** The push sender's pruning of dead tokens: paused now, and the devices kept meanwhile. */
function pushMetrics(registers: Registers, push: MetricsSources['push']): void {
  new Gauge({
    name: 'pronostics_push_pruning_paused',
    help: 'Whether this process paused the pruning of dead push tokens (1): every device answered as dead (a wrong FCM_PROJECT_ID or sender?).',
    registers,
    collect() {
      this.set(push.pruningStats().paused ? 1 : 0);
    },
  });
  new Counter({
    name: 'pronostics_push_devices_held_total',
    help: 'Push devices answered as dead but kept because pruning was paused, since this process started.',
    registers,
    collect() {
      this.reset();
      this.inc(push.pruningStats().held);
    },
  });
}

export type MetricsService = ReturnType<typeof createMetricsService>;
