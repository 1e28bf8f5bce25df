// Push delivery: what the push sender (runtime/push-sender.ts) runs. Each device follows its
// owner's event log with its own cursor (`pushed_seq`): a pass leases the user's devices that are
// behind the log, reads the events after the furthest-behind cursor, and sends each event to each
// device through the push driver, moving that device's cursor after each send. So the log stays the
// truth and delivery is at least once: a crash repeats at most the send in flight (the lease runs
// out, another pass takes over from the stored cursor), a device that failed is retried alone,
// later, with backoff, and a dead token is pruned. Events older than PUSH_MAX_AGE_SECONDS are
// skipped (a late notification is noise; the app reads the log). A wrong push project answers
// every device as dead: many such answers in a row pause the pruning (`PruneGuard`, below), one
// guard per driver, so FCM's dead answers never pause the pruning of Web Push's, nor the reverse.
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.js';
import type { Locale, UserEventType } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { catalogueFor } from '../../lib/messages.js';
import { addSeconds, isoTimestamp } from '../../lib/time.js';
import type { PushDriver, PushResult } from '../../providers/push/types.js';
import type { AdminEventLog } from '../events/service.js';
import {
  advanceDevice,
  claimDevices,
  type DeviceRow,
  deleteDeviceById,
  nextRetryAt,
  postponeDevice,
  usersWithFreeDevices,
} from './repository.js';
import type { LogHeads } from './service.js';

/**
 * A wrong FCM_PROJECT_ID or sender answers 404 or 403 SENDER_ID_MISMATCH for every device, exactly
 * as dead tokens do. So when this many distinct devices answer dead within PRUNE_PAUSE_WINDOW_SECONDS
 * with no successful send in between, pruning pauses: devices answering dead are kept (retried
 * with backoff), the back office gets a `push.pruning_paused` event, and the metrics show it. The
 * next successful send resumes pruning (docs/decisions/0103-push-pruning-pause.md).
 */
export const PRUNE_PAUSE_AFTER = 5;
export const PRUNE_PAUSE_WINDOW_SECONDS = 600;

/** What `/metrics` reads of the pruning: paused now, and devices kept while it was. */
export interface PruningStats {
  paused: boolean;
  /** Devices kept (not forgotten) because pruning was paused, since the process started. */
  held: number;
  /** Times pruning paused since the process started. */
  pauses: number;
}

/**
 * The streak of dead answers since the last successful send, per process: distinct devices within
 * the window. In memory: a restart starts a new streak (at most PRUNE_PAUSE_AFTER - 1 devices are
 * forgotten before it pauses again).
 */
function pruneGuard(now: () => number) {
  const dead = new Map<number, number>();
  const stats: PruningStats = { paused: false, held: 0, pauses: 0 };
  return {
    stats,
    /** A successful send: the project is right; the streak ends and pruning resumes. */
    succeeded(): boolean {
      dead.clear();
      const was = stats.paused;
      stats.paused = false;
      return was;
    },
    /** A device answered dead: 'prune' it, or 'hold' it; 'paused' the first time the streak pauses pruning. */
    answeredDead(deviceId: number): 'prune' | 'hold' | 'paused' {
      const at = now();
      for (const [id, seenAt] of dead) {
        if (at - seenAt > PRUNE_PAUSE_WINDOW_SECONDS * 1000) dead.delete(id);
      }
      dead.set(deviceId, at);
      if (stats.paused) {
        stats.held += 1;
        return 'hold';
      }
      if (dead.size < PRUNE_PAUSE_AFTER) return 'prune';
      stats.paused = true;
      stats.pauses += 1;
      stats.held += 1;
      return 'paused';
    },
    streak: () => dead.size,
  };
}

/** What the push needs of the event logs (the events service implements it). */
export interface PushLogs extends LogHeads, AdminEventLog {
  history(
    user: { id: number },
    query: { after?: number; per_page?: number },
  ): Promise<{
    events: { id: number; type: string; created_at: string; data: Record<string, unknown> }[];
    meta: { has_more: boolean };
  }>;
}

export interface PushDeliveryDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  events: PushLogs;
  driver: PushDriver;
  /** The account's language: its pushes are written in it (no request is there to ask). */
  localeOf(userId: number): Promise<Locale>;
  /** PUSH_MAX_AGE_SECONDS: older events are skipped. */
  maxAgeSeconds: number;
  /** How long a pass holds a device (renewed at each send); another takes over after it. */
  leaseSeconds?: number;
  /** First retry delay; doubled each failure up to `backoffCapMs`, with jitter. */
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Jitter source (tests pin it). */
  random?: () => number;
}

export interface DeliveryReport {
  sent: number;
  /** Past PUSH_MAX_AGE_SECONDS: not pushed. */
  skipped: number;
  /** The provider refused the message itself: skipped, device kept. */
  rejected: number;
  /** Devices forgotten because their token is dead. */
  pruned: number;
  /** Devices postponed after a retryable failure. */
  postponed: number;
  /** Devices answered dead but kept: pruning was paused (a wrong push project, PRUNE_PAUSE_AFTER). */
  held: number;
}

const EVENTS_PER_READ = 50;
const USERS_PER_SCAN = 500;

export const emptyReport = (): DeliveryReport => ({
  sent: 0,
  skipped: 0,
  rejected: 0,
  pruned: 0,
  postponed: 0,
  held: 0,
});

export function addReports(into: DeliveryReport, more: DeliveryReport): DeliveryReport {
  into.sent += more.sent;
  into.skipped += more.skipped;
  into.rejected += more.rejected;
  into.pruned += more.pruned;
  into.postponed += more.postponed;
  into.held += more.held;
  return into;
}

/** The notification's data: strings only (FCM's rule); `id` is the event's subject (pronostic, payment…). */
function pushData(event: { id: number; type: string; created_at: string; data: Record<string, unknown> }) {
  const data: Record<string, string> = {
    type: event.type,
    seq: String(event.id),
    created_at: event.created_at,
  };
  const subject = event.data.id;
  if (typeof subject === 'number' || typeof subject === 'string') data.id = String(subject);
  return data;
}

export function createPushDelivery(deps: PushDeliveryDeps) {
  const { db, clock, logger, events, driver } = deps;
  const leaseSeconds = deps.leaseSeconds ?? 60;
  const baseMs = deps.backoffBaseMs ?? 5_000;
  const capMs = deps.backoffCapMs ?? 15 * 60_000;
  const random = deps.random ?? Math.random;
  // One guard per driver: the app's devices go to PUSH_DRIVER's, the browsers to WEBPUSH_DRIVER's.
  const guards = {
    apps: pruneGuard(() => clock.now().getTime()),
    browsers: pruneGuard(() => clock.now().getTime()),
  };
  const guardOf = (device: DeviceRow) => guards[device.platform === 'webpush' ? 'browsers' : 'apps'];

  /** Exponential backoff with jitter (half to all of the step), never sooner than Retry-After. */
  function backoffMs(attempts: number, retryAfterMs: number | undefined): number {
    const step = Math.min(capMs, baseMs * 2 ** Math.min(attempts - 1, 30));
    const jittered = Math.round(step * (0.5 + random() * 0.5));
    return Math.max(jittered, Math.min(retryAfterMs ?? 0, deps.maxAgeSeconds * 1000));
  }

  async function sendSafely(
    device: DeviceRow,
    event: Parameters<typeof pushData>[0],
    locale: Locale,
  ): Promise<PushResult> {
    const texts = catalogueFor(locale).pushTexts[event.type as UserEventType] ?? {
      title: event.type,
      body: '',
    };
    try {
      return await driver.send({
        deviceId: device.id,
        token: device.token,
        platform: device.platform,
        title: texts.title,
        body: texts.body,
        data: pushData(event),
      });
    } catch (error) {
      // A driver's own bug: the event stays in the log, the device is tried again later.
      return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
  }

  /**
   * Pushes to the user's free devices that are behind `head` (by default the log's last seq) what
   * the log holds after each one's cursor.
   */
  async function deliver(userId: number, head?: number): Promise<DeliveryReport> {
    const report = emptyReport();
    const last = head ?? (await events.lastSeqs([userId])).get(userId) ?? 0;
    if (last === 0) return report;
    const now = clock.now();
    const leaseUntil = () => addSeconds(clock.now(), leaseSeconds).toISOString();
    const claimed = await claimDevices(db, userId, last, now.toISOString(), leaseUntil());
    if (claimed.length === 0) return report;
    const locale = await deps.localeOf(userId);
    const active = new Map(
      claimed.map((row) => [row.id, { row, seq: row.pushedSeq, attempts: row.attempts }]),
    );
    const oldestMs = now.getTime() - deps.maxAgeSeconds * 1000;
    let after = Math.min(...claimed.map((row) => row.pushedSeq));

    while (active.size > 0) {
      const page = await events.history({ id: userId }, { after, per_page: EVENTS_PER_READ });
      for (const event of page.events) {
        const tooOld = Date.parse(event.created_at) < oldestMs;
        for (const device of [...active.values()]) {
          if (device.seq >= event.id) continue;
          if (tooOld) {
            device.seq = event.id;
            report.skipped += 1;
            continue;
          }
          const result = await sendSafely(device.row, event, locale);
          if (result.outcome === 'sent' || result.outcome === 'rejected') {
            if (result.outcome === 'rejected') {
              logger.warn(
                { device_id: device.row.id, seq: event.id, reason: result.reason },
                'push refused; skipped',
              );
            }
            if (result.outcome === 'sent' && guardOf(device.row).succeeded()) {
              logger.info({ device_id: device.row.id }, 'push sent again: pruning of dead tokens resumed');
            }
            device.seq = event.id;
            device.attempts = 0;
            report[result.outcome] += 1;
            await advanceDevice(db, device.row.id, event.id, leaseUntil());
          } else if (result.outcome === 'unregistered') {
            active.delete(device.row.id);
            const guard = guardOf(device.row);
            const verdict = guard.answeredDead(device.row.id);
            if (verdict === 'prune') {
              report.pruned += 1;
              logger.info(
                { device_id: device.row.id, user_id: userId, reason: result.reason },
                'push token dead; device forgotten',
              );
              await deleteDeviceById(db, device.row.id);
            } else {
              // Too many dead answers in a row to be dead tokens: kept, tried again later.
              report.held += 1;
              const attempts = device.attempts + 1;
              const retryAt = new Date(clock.now().getTime() + backoffMs(attempts, undefined));
              await postponeDevice(db, device.row.id, device.seq, attempts, retryAt.toISOString());
              if (verdict === 'paused') await pruningPaused(guard.streak(), result.reason);
            }
          } else {
            active.delete(device.row.id);
            report.postponed += 1;
            const attempts = device.attempts + 1;
            const retryAt = new Date(clock.now().getTime() + backoffMs(attempts, result.retryAfterMs));
            logger.info(
              {
                device_id: device.row.id,
                seq: event.id,
                attempts,
                retry_at: retryAt.toISOString(),
                reason: result.reason,
              },
              'push failed; retried later',
            );
            await postponeDevice(db, device.row.id, device.seq, attempts, retryAt.toISOString());
          }
        }
      }
      const lastRead = page.events.at(-1)?.id;
      if (!page.meta.has_more || lastRead === undefined) break;
      after = lastRead;
    }
    // What is left: every event pushed or skipped; the cursor stored, the lease given back. Every
    // event up to `last` had committed before the reads above, so one they did not return was
    // purged (past the retention): the cursor passes it too.
    for (const device of active.values()) {
      await advanceDevice(db, device.row.id, Math.max(device.seq, last), null);
    }
    return report;
  }

  /** The streak just paused pruning: one admin event and one warning. */
  async function pruningPaused(streak: number, reason: string | undefined): Promise<void> {
    const data = {
      dead_answers: streak,
      window_seconds: PRUNE_PAUSE_WINDOW_SECONDS,
      reason: reason ?? null,
      paused_at: clock.now().toISOString(),
    };
    logger.warn(
      data,
      'push: every device answers as dead (a wrong FCM_PROJECT_ID or sender?): pruning paused, devices kept',
    );
    await db.transaction((tx) => events.appendAdmin(tx, 'push.pruning_paused', data));
  }

  return {
    deliver,

    /** The pruning's state for `/metrics`: paused now (for either driver), devices kept, pauses. */
    pruningStats(): PruningStats {
      const { apps, browsers } = guards;
      return {
        paused: apps.stats.paused || browsers.stats.paused,
        held: apps.stats.held + browsers.stats.held,
        pauses: apps.stats.pauses + browsers.stats.pauses,
      };
    },

    /**
     * One pass over every user holding a free device behind their log (the slow poll, and what runs
     * after a lost LISTEN): finds what notifications may have missed.
     */
    async deliverDue(): Promise<DeliveryReport> {
      const report = emptyReport();
      for (let after = 0; ; ) {
        const rows = await usersWithFreeDevices(db, after, USERS_PER_SCAN, clock.now().toISOString());
        if (rows.length === 0) break;
        const heads = await events.lastSeqs(rows.map((row) => row.userId));
        for (const row of rows) {
          const head = heads.get(row.userId) ?? 0;
          if (head > (row.behind ?? head)) addReports(report, await deliver(row.userId, head));
        }
        if (rows.length < USERS_PER_SCAN) break;
        after = rows.at(-1)!.userId;
      }
      return report;
    },

    /** When the next postponed push is due (the sender's timer), if any. */
    async nextRetryAt(): Promise<Date | undefined> {
      const at = await nextRetryAt(db, clock.now().toISOString());
      return at === undefined ? undefined : new Date(Date.parse(isoTimestamp(at)));
    },
  };
}

export type PushDelivery = ReturnType<typeof createPushDelivery>;
