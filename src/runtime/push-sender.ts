// The push sender: sends users' events to their registered devices through the push driver. The
// event logs are the truth and each device keeps its own cursor in the database (modules/devices/
// push.ts), so this loop only decides when to look: at once for the user named by an
// `event_appended` notification (sent when the event's transaction commits, in any process), on a
// slow poll over every device behind its log (what a lost notification, a restart or a retry due
// needs), after a lost LISTEN connection comes back, and when the earliest postponed push is due.
// Several processes may run it: a device is leased by one pass at a time.
import type { FastifyBaseLogger } from 'fastify';
import { channels } from '../db/channels.js';
import type { DatabaseHandle } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { appendedNotice } from '../modules/events/service.js';

/** What a pass did (the delivery's report; counted here for the log only). */
export type DeliveryReport = Record<'sent' | 'skipped' | 'rejected' | 'pruned' | 'postponed', number>;

const emptyReport = (): DeliveryReport => ({ sent: 0, skipped: 0, rejected: 0, pruned: 0, postponed: 0 });

function addReports(into: DeliveryReport, more: DeliveryReport): DeliveryReport {
  for (const key of Object.keys(into) as (keyof DeliveryReport)[]) into[key] += more[key];
  return into;
}

/** What the sender needs of the push delivery (the container's `push` implements it). */
export interface PushDeliveries {
  deliver(userId: number, head?: number): Promise<DeliveryReport>;
  deliverDue(): Promise<DeliveryReport>;
  nextRetryAt(): Promise<Date | undefined>;
}

export interface PushSenderDeps {
  database: Pick<DatabaseHandle, 'listen'>;
  push: PushDeliveries;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The slow poll; a minute by default. */
  pollMs?: number;
  /** Users whose pushes run at once. */
  concurrency?: number;
}

export type PushSender = ReturnType<typeof createPushSender>;

export function createPushSender(deps: PushSenderDeps) {
  const { database, push, clock, logger } = deps;
  const pollMs = deps.pollMs ?? 60_000;
  const concurrency = deps.concurrency ?? 8;
  let running = false;
  /** Users named by notifications, with the highest seq heard of. */
  const pending = new Map<number, number>();
  let scanWanted = false;
  let busy: Promise<void> | undefined;
  let poll: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  function kick(): void {
    if (!running || busy) return;
    busy = work()
      .catch((error: unknown) => logger.error({ err: error }, 'push sender pass failed'))
      .finally(() => {
        busy = undefined;
        // A notification that came while the last users were finishing.
        if (running && (scanWanted || pending.size > 0)) kick();
      });
  }

  async function work(): Promise<void> {
    while (running && (scanWanted || pending.size > 0)) {
      if (scanWanted) {
        scanWanted = false;
        report(await push.deliverDue());
      }
      const users = [...pending.entries()];
      pending.clear();
      // `concurrency` lanes, each taking the next user as soon as its own is done: a slow push
      // service holds one lane, never a whole batch of users in lockstep.
      const done = emptyReport();
      const lane = async () => {
        for (let next = users.shift(); running && next; next = users.shift()) {
          const [userId, head] = next;
          const delivered = await push.deliver(userId, head).catch((error: unknown) => {
            // The device's lease runs out and the poll tries again: nothing is lost.
            logger.warn({ err: error, user_id: userId }, 'push for a user failed');
            return emptyReport();
          });
          addReports(done, delivered);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, users.length) }, lane));
      report(done);
    }
    await armRetryTimer();
  }

  function report(done: DeliveryReport): void {
    if (done.sent + done.skipped + done.rejected + done.pruned + done.postponed > 0) {
      logger.debug(done, 'push sender pass');
    }
  }

  /** Wakes the sender when the earliest postponed push is due (the poll would too, later). */
  async function armRetryTimer(): Promise<void> {
    if (!running) return;
    const at = await push.nextRetryAt();
    if (retryTimer) clearTimeout(retryTimer);
    retryTimer = undefined;
    if (!at) return;
    const delay = Math.min(pollMs, Math.max(1000, at.getTime() - clock.now().getTime()));
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      scanWanted = true;
      kick();
    }, delay);
    retryTimer.unref();
  }

  function onAppended(payload: string): void {
    const { log, seq } = appendedNotice(payload);
    // 0 is the back office's log: nothing of it is pushed.
    if (!log || !Number.isSafeInteger(log) || !Number.isSafeInteger(seq)) return;
    pending.set(log, Math.max(pending.get(log) ?? 0, seq));
    kick();
  }

  return {
    async start(): Promise<void> {
      if (running) return;
      running = true;
      unlisten = await database.listen(channels.eventAppended, onAppended, {
        lost() {},
        // Notifications may have been missed meanwhile: look at every device.
        restored() {
          scanWanted = true;
          kick();
        },
      });
      poll = setInterval(() => {
        scanWanted = true;
        kick();
      }, pollMs);
      poll.unref();
      // What was committed while no sender ran.
      scanWanted = true;
      kick();
    },

    /** One full pass now, after the one under way (tests, and what the poll runs). */
    async runOnce(): Promise<DeliveryReport> {
      await busy;
      return push.deliverDue();
    },

    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      if (poll) clearInterval(poll);
      if (retryTimer) clearTimeout(retryTimer);
      poll = undefined;
      retryTimer = undefined;
      await unlisten?.();
      await busy;
    },
  };
}
