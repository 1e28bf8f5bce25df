// The shared leased claim (provider-operations/follow.ts), on rows of its own: the claims payments and
// payouts both use. The poller's claim counts the look and leases the row; a claim by id leases a
// pending row without counting and still reads a final one; the provider is asked in no
// transaction; the answer (or the error) is applied in a second one, with the caller's source.
import { describe, expect, it } from 'vitest';
import type { Database, Transaction } from '../../src/db/client.js';
import { ManualClock } from '../../src/lib/clock.js';
import {
  CLAIM_LEASE_SECONDS,
  type LeasedRows,
  leasedFollower,
  type ProviderAnswer,
} from '../../src/money/provider/follow.js';

interface Row {
  id: number;
  status: string;
  checks: number;
  nextCheckAt: string | null;
}

/** Rows in memory, and a stand-in database whose transactions are only counted. */
function setup(rows: Row[]) {
  const clock = new ManualClock('2026-03-10T12:00:00.000Z');
  let open = 0;
  const log: string[] = [];
  const tx = {} as Transaction;
  const db = {
    async transaction<T>(run: (tx: Transaction) => Promise<T>): Promise<T> {
      open += 1;
      try {
        return await run(tx);
      } finally {
        open -= 1;
      }
    },
  } as unknown as Database;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const leased: LeasedRows<Row> = {
    async lockDue(_tx, now) {
      log.push(`lockDue in tx ${open}`);
      return rows
        .filter((row) => row.nextCheckAt !== null && new Date(row.nextCheckAt) <= now)
        .sort((a, b) => a.nextCheckAt!.localeCompare(b.nextCheckAt!))[0];
    },
    async lock(_tx, id) {
      log.push(`lock ${id} in tx ${open}`);
      return byId.get(id);
    },
    async recordLook(_tx, id, look) {
      const row = byId.get(id)!;
      Object.assign(row, look);
      return { ...row };
    },
  };
  const answers: { row: Row; answer: ProviderAnswer<string>; source: string }[] = [];
  let word: () => Promise<string> = async () => 'complete';
  const follower = leasedFollower({
    db,
    clock,
    rows: leased,
    async ask(row) {
      log.push(`ask ${row.id} in tx ${open}`);
      return word();
    },
    async apply(_tx, row, answer, source) {
      log.push(`apply ${row.id} in tx ${open}`);
      answers.push({ row, answer, source });
      return `applied ${row.id}`;
    },
  });
  return {
    clock,
    follower,
    log,
    answers,
    byId,
    answerWith(next: () => Promise<string>) {
      word = next;
    },
  };
}

const lease = new Date(Date.parse('2026-03-10T12:00:00.000Z') + CLAIM_LEASE_SECONDS * 1000).toISOString();

describe('leasedFollower', () => {
  it('the poller claims the most overdue row: the look counted, the row leased, the provider asked in no transaction', async () => {
    const s = setup([
      { id: 1, status: 'pending', checks: 2, nextCheckAt: '2026-03-10T11:59:00.000Z' },
      { id: 2, status: 'pending', checks: 0, nextCheckAt: '2026-03-10T11:58:00.000Z' },
      { id: 3, status: 'pending', checks: 0, nextCheckAt: '2026-03-10T13:00:00.000Z' },
    ]);
    expect(await s.follower.checkDue()).toBe(true);
    expect(s.byId.get(2)).toMatchObject({ checks: 1, nextCheckAt: lease });
    expect(s.log).toEqual(['lockDue in tx 1', 'ask 2 in tx 0', 'apply 2 in tx 1']);
    expect(s.answers).toEqual([
      {
        row: expect.objectContaining({ id: 2, checks: 1 }),
        answer: { ok: true, word: 'complete' },
        source: 'poller',
      },
    ]);
  });

  it('the poller finds nothing due: false, nobody asked', async () => {
    const s = setup([{ id: 1, status: 'pending', checks: 0, nextCheckAt: '2026-03-10T13:00:00.000Z' }]);
    expect(await s.follower.checkDue()).toBe(false);
    expect(s.log).toEqual(['lockDue in tx 1']);
  });

  it('by id: a pending row is leased without counting the look; the source reaches apply', async () => {
    const s = setup([{ id: 7, status: 'pending', checks: 3, nextCheckAt: '2026-03-10T12:05:00.000Z' }]);
    expect(await s.follower.follow(7, 'webhook')).toBe('applied 7');
    expect(s.byId.get(7)).toMatchObject({ checks: 3, nextCheckAt: lease });
    expect(s.answers[0]!.source).toBe('webhook');
  });

  it('by id: a final row is still read (news against it must reach an admin), never leased', async () => {
    const s = setup([{ id: 8, status: 'paid', checks: 4, nextCheckAt: null }]);
    expect(await s.follower.follow(8, 'webhook')).toBe('applied 8');
    expect(s.byId.get(8)).toMatchObject({ checks: 4, nextCheckAt: null });
    expect(s.log).toEqual(['lock 8 in tx 1', 'ask 8 in tx 0', 'apply 8 in tx 1']);
  });

  it('by id: an unknown row is undefined and nobody is asked', async () => {
    const s = setup([]);
    expect(await s.follower.follow(9, 'webhook')).toBeUndefined();
    expect(s.log).toEqual(['lock 9 in tx 1']);
  });

  it('a provider that throws is applied as an error, in the second transaction', async () => {
    const s = setup([{ id: 1, status: 'pending', checks: 0, nextCheckAt: '2026-03-10T11:00:00.000Z' }]);
    const failure = new Error('timeout');
    s.answerWith(async () => {
      throw failure;
    });
    expect(await s.follower.checkDue()).toBe(true);
    expect(s.answers[0]!.answer).toEqual({ ok: false, error: failure });
    expect(s.log.at(-1)).toBe('apply 1 in tx 1');
  });
});
