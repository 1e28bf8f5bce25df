// Migration 0018 on a database that holds money in the old shape: the transfer columns of approved
// withdrawals move to `payouts` (pending, paid or failed as the withdrawal was), and the payment
// flags move to the one `flags` table with their new kinds, open or resolved as they were.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, migrationsFolder, openDatabase } from '../../src/db/client.js';

const MIGRATION = '0018_money_safety';
let handle: DatabaseHandle;
let folder: string;

beforeAll(async () => {
  // The migrations before 0018, as a database upgraded from the last release holds them.
  folder = mkdtempSync(join(tmpdir(), 'migrations-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((entry) => entry.tag === MIGRATION);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  handle = await openDatabase({ url: 'memory://' });
  await migrate(handle.db as never, { migrationsFolder: folder });
});
afterAll(async () => {
  await handle.close();
  rmSync(folder, { recursive: true, force: true });
});

const rows = async (query: ReturnType<typeof sql>) =>
  (await handle.db.execute(query)) as unknown as { rows: Record<string, unknown>[] };

describe(`migration ${MIGRATION}`, () => {
  it('moves transfer state to payouts and payment flags to flags, nothing lost', async () => {
    await handle.db.execute(sql`
      INSERT INTO users (id, phone, country, affiliation_code, role) VALUES
        (1, '+237670000001', 'CM', 'AAAAAAA1', 'user'), (2, '+237670000002', 'CM', 'AAAAAAA2', 'admin')`);
    await handle.db.execute(sql`
      INSERT INTO withdrawals (id, user_id, amount, status, phone, channel, operator, decision, decided_by,
        decided_at, provider, transfer_reference, provider_reference, provider_status, next_check_at, checks,
        payout_deadline_at, escalated_at, escalation_reason, finished_at)
      VALUES
        (1, 1, 5000, 'pending', '+237670000001', 'cm.mtn', '{"name":"MTN","icon":"https://x/i.png"}', NULL, NULL,
          NULL, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL, NULL, NULL),
        (2, 1, 6000, 'pending', '+237670000001', 'cm.mtn', '{"name":"MTN","icon":"https://x/i.png"}', 'approved', 2,
          '2026-11-01T10:00:00Z', 'notchpay', 'wd-2', 'trf_2', 'sent', '2026-11-01T10:05:00Z', 3,
          '2026-11-01T16:00:00Z', '2026-11-01T16:00:01Z', 'stuck_sent', NULL),
        (3, 1, 7000, 'success', '+237670000001', 'cm.mtn', '{"name":"MTN","icon":"https://x/i.png"}', 'approved', 2,
          '2026-11-02T10:00:00Z', 'sandbox', 'wd-3', 'sandbox-wd-3', 'complete', NULL, 1,
          '2026-11-02T16:00:00Z', NULL, NULL, '2026-11-02T10:01:00Z'),
        (4, 1, 8000, 'cancelled', '+237670000001', 'cm.mtn', '{"name":"MTN","icon":"https://x/i.png"}', 'approved', 2,
          '2026-11-03T10:00:00Z', 'notchpay', 'wd-4', 'trf_4', 'failed', NULL, 2,
          '2026-11-03T16:00:00Z', NULL, NULL, '2026-11-03T10:02:00Z')`);
    await handle.db.execute(sql`
      INSERT INTO payments (id, user_id, pack_id, reference, provider, status, amount, credits, payer_phone,
        channel, expires_at)
      VALUES (1, 1, 1, 'PAY-1', 'notchpay', 'failed', 500, 5, '+237670000001', 'cm.mtn', now()),
             (2, 1, 1, 'PAY-2', 'notchpay', 'success', 500, 5, '+237670000001', 'cm.mtn', now())`);
    await handle.db.execute(sql`
      INSERT INTO payment_flags (payment_id, reason, details, resolved_at) VALUES
        (1, 'complete_after_failed', '{"provider_status":"complete"}', NULL),
        (2, 'refunded_after_success', '{"provider_status":"refunded"}', '2026-11-04T00:00:00Z'),
        (2, 'failed_after_success', '{"provider_status":"failed"}', NULL),
        (1, 'amount_mismatch', '{"amount":100}', NULL)`);

    const migration = readFileSync(join(migrationsFolder, `${MIGRATION}.sql`), 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) {
      if (statement.trim()) await handle.db.execute(sql.raw(statement));
    }

    const moved = await rows(sql`
      SELECT withdrawal_id, provider, reference, provider_reference, provider_status, status, amount, checks,
        next_check_at IS NOT NULL AS has_next, create_attempted_at = '2026-11-01T10:00:00Z'::timestamptz AS attempted_at_decision
      FROM payouts ORDER BY withdrawal_id`);
    expect(moved.rows).toEqual([
      expect.objectContaining({
        withdrawal_id: 2,
        provider: 'notchpay',
        reference: 'wd-2',
        provider_reference: 'trf_2',
        provider_status: 'sent',
        status: 'pending',
        amount: 6000,
        checks: 3,
        has_next: true,
        attempted_at_decision: true,
      }),
      expect.objectContaining({
        withdrawal_id: 3,
        provider: 'sandbox',
        reference: 'wd-3',
        status: 'paid',
        amount: 7000,
        has_next: false,
      }),
      expect.objectContaining({
        withdrawal_id: 4,
        provider: 'notchpay',
        reference: 'wd-4',
        status: 'failed',
        amount: 8000,
        has_next: false,
      }),
    ]);
    const escalation = await rows(sql`SELECT escalation_reason FROM withdrawals WHERE id = 2`);
    expect(escalation.rows).toEqual([{ escalation_reason: 'stuck_sent' }]);
    const flags = await rows(sql`
      SELECT kind, target_type, target_id, status, details FROM flags ORDER BY target_id, kind`);
    expect(flags.rows).toEqual([
      {
        kind: 'amount_mismatch',
        target_type: 'payment',
        target_id: 1,
        status: 'open',
        details: { amount: 100 },
      },
      {
        kind: 'late_complete',
        target_type: 'payment',
        target_id: 1,
        status: 'open',
        details: { provider_status: 'complete' },
      },
      {
        kind: 'failed_after_success',
        target_type: 'payment',
        target_id: 2,
        status: 'open',
        details: { provider_status: 'failed' },
      },
      {
        kind: 'refund_after_success',
        target_type: 'payment',
        target_id: 2,
        status: 'resolved',
        details: { provider_status: 'refunded' },
      },
    ]);
    const gone = await rows(sql`SELECT to_regclass('payment_flags') AS table`);
    expect(gone.rows).toEqual([{ table: null }]);
  });
});
