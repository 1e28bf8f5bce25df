// The metrics service alone, with sources of the test's: each backlog is read once per interval
// however many scrapes come at once, and a failed read is counted while the gauges keep their value.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import {
  type Backlog,
  createMetricsService,
  type MetricsSources,
} from '../../src/modules/metrics/service.js';

const logger = pino({ level: 'silent' });
const pool = { max: 4, open: 2, idle: 1, waiting: 3, acquires: 10, acquireSeconds: 0.5 };

function countingSources(clock: ManualClock) {
  const reads = { analysis: 0, payments: 0, payouts: 0, sms: 0 };
  let failing = false;
  let pending = 2;
  const at = (seconds: number) => clock.now().getTime() / 1000 - seconds;
  /** Counts the read of `source`, answers after a few milliseconds (or fails). */
  const slowly = async <T>(source: keyof typeof reads, value: () => T): Promise<T> => {
    reads[source] += 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (failing) throw new Error('database down');
    return value();
  };
  const sources: MetricsSources = {
    analysis: {
      backlog: () => slowly<Backlog>('analysis', () => ({ count: 0, oldestAt: null })),
    },
    payments: {
      pendingBacklog: () => slowly('payments', () => ({ count: pending, oldestAt: at(90) })),
    },
    payouts: { pendingBacklog: () => slowly('payouts', () => ({ count: 1, oldestAt: at(30) })) },
    sms: {
      smsBudgetUse: () => slowly('sms', () => [{ budget: 'global', used: 7, limit: 1500 }]),
    },
    backups: { backupStats: () => ({ succeeded: 3, failed: 1, lastSuccessAt: 1_790_000_000 }) },
    push: { pruningStats: () => ({ paused: false, held: 0, pauses: 0 }) },
  };
  return {
    sources,
    reads,
    fail: (value: boolean) => {
      failing = value;
    },
    setPending: (value: number) => {
      pending = value;
    },
  };
}

const line = (body: string, name: string) =>
  body.split('\n').find((text) => text.startsWith(`${name} `) || text.startsWith(`${name}{`));

describe('createMetricsService', () => {
  it('reads each backlog once per interval, whatever the scrapes', async () => {
    const clock = new ManualClock();
    const fake = countingSources(clock);
    const metrics = createMetricsService({
      clock,
      logger,
      database: { poolStats: () => pool },
      sources: fake.sources,
    });
    const bodies = await Promise.all(Array.from({ length: 10 }, () => metrics.render()));
    expect(fake.reads).toEqual({ analysis: 1, payments: 1, payouts: 1, sms: 1 });
    for (const { body } of bodies)
      expect(line(body, 'pronostics_payments_pending')).toBe('pronostics_payments_pending 2');
    fake.setPending(5);
    clock.advanceSeconds(9.9);
    expect(line((await metrics.render()).body, 'pronostics_payments_pending')).toBe(
      'pronostics_payments_pending 2',
    );
    expect(fake.reads.payments).toBe(1);
    clock.advanceSeconds(0.1);
    const { body } = await metrics.render();
    expect(fake.reads).toEqual({ analysis: 2, payments: 2, payouts: 2, sms: 2 });
    expect(line(body, 'pronostics_payments_pending')).toBe('pronostics_payments_pending 5');
    expect(line(body, 'pronostics_payments_pending_oldest_seconds')).toBe(
      'pronostics_payments_pending_oldest_seconds 90',
    );
    expect(line(body, 'pronostics_analysis_queue_oldest_seconds')).toBe(
      'pronostics_analysis_queue_oldest_seconds 0',
    );
    expect(line(body, 'pronostics_sms_budget_used')).toBe('pronostics_sms_budget_used{budget="global"} 7');
    expect(line(body, 'pronostics_db_pool_waiting')).toBe('pronostics_db_pool_waiting 3');
    expect(line(body, 'pronostics_db_pool_acquires_total')).toBe('pronostics_db_pool_acquires_total 10');
    expect(line(body, 'pronostics_db_pool_acquire_seconds_total')).toBe(
      'pronostics_db_pool_acquire_seconds_total 0.5',
    );
    expect(line(body, 'pronostics_db_pool_connections')).toBe(
      'pronostics_db_pool_connections{state="max"} 4',
    );
  });

  it('counts a failed read, keeps the last values, and tries again only after the interval', async () => {
    const clock = new ManualClock();
    const fake = countingSources(clock);
    const metrics = createMetricsService({
      clock,
      logger,
      database: { poolStats: () => pool },
      sources: fake.sources,
    });
    await metrics.render();
    fake.fail(true);
    fake.setPending(9);
    clock.advanceSeconds(10);
    let { body } = await metrics.render();
    expect(line(body, 'pronostics_payments_pending')).toBe('pronostics_payments_pending 2');
    // The failure is counted while the scrape runs: the next scrape shows it, without a new read.
    ({ body } = await metrics.render());
    expect(fake.reads.payments).toBe(2);
    expect(line(body, 'pronostics_metrics_read_errors_total{source="payments"}')).toBe(
      'pronostics_metrics_read_errors_total{source="payments"} 1',
    );
    fake.fail(false);
    clock.advanceSeconds(10);
    ({ body } = await metrics.render());
    expect(line(body, 'pronostics_payments_pending')).toBe('pronostics_payments_pending 9');
  });

  it("shows the scheduled backups' results and the last success", async () => {
    const clock = new ManualClock();
    const metrics = createMetricsService({
      clock,
      logger,
      database: { poolStats: () => pool },
      sources: countingSources(clock).sources,
    });
    const { body } = await metrics.render();
    expect(line(body, 'pronostics_backups_total{result="succeeded"}')).toBe(
      'pronostics_backups_total{result="succeeded"} 3',
    );
    expect(line(body, 'pronostics_backups_total{result="failed"}')).toBe(
      'pronostics_backups_total{result="failed"} 1',
    );
    expect(line(body, 'pronostics_backup_last_success_seconds')).toBe(
      'pronostics_backup_last_success_seconds 1790000000',
    );
  });

  it('records each route once per status, with the route given', async () => {
    const clock = new ManualClock();
    const metrics = createMetricsService({
      clock,
      logger,
      database: { poolStats: () => pool },
      sources: countingSources(clock).sources,
    });
    const record = metrics.routeRecorder('GET', '/api/user/pronostic/:id');
    record(200, 0.003);
    record(200, 0.2);
    record(404, 0.001);
    const { body } = await metrics.render();
    const labels = 'method="GET",route="/api/user/pronostic/:id"';
    expect(body).toContain(`http_request_duration_seconds_count{${labels},status_code="200"} 2`);
    expect(body).toContain(`http_request_duration_seconds_sum{${labels},status_code="200"} 0.203`);
    expect(body).toContain(`http_request_duration_seconds_bucket{le="0.005",${labels},status_code="200"} 1`);
    expect(body).toContain(`http_request_duration_seconds_count{${labels},status_code="404"} 1`);
  });
});
