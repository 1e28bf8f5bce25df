// The push sender's users run in independent lanes: a user whose push service stalls holds one lane,
// and every other user named by a notification is still pushed meanwhile (no batch in lockstep).
import pino from 'pino';
import { expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { createPushSender, type DeliveryReport } from '../../src/runtime/push-sender.js';

const report = (sent: number): DeliveryReport => ({ sent, skipped: 0, rejected: 0, pruned: 0, postponed: 0 });

it('a stalled user holds one lane: the eight others are pushed while it waits', async () => {
  let notify: ((payload: string) => void) | undefined;
  let release: (() => void) | undefined;
  const stalled = new Promise<void>((resolve) => {
    release = resolve;
  });
  const delivered: number[] = [];
  const sender = createPushSender({
    database: {
      async listen(_channel, onMessage) {
        notify = onMessage;
        return async () => {};
      },
    },
    push: {
      async deliver(userId) {
        if (userId === 1) await stalled;
        delivered.push(userId);
        return report(1);
      },
      deliverDue: async () => report(0),
      nextRetryAt: async () => undefined,
    },
    clock: new ManualClock(),
    logger: pino({ level: 'silent' }),
    concurrency: 8,
  });
  await sender.start();
  for (let user = 1; user <= 9; user++) notify?.(`${user}:1`);
  for (let waited = 0; delivered.length < 8 && waited < 2000; waited += 10) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(delivered.sort((a, b) => a - b)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
  release?.();
  await sender.runOnce();
  expect(delivered).toContain(1);
  await sender.stop();
});
