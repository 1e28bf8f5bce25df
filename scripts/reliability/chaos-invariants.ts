// What `npm run chaos` checks once everything is drained, by SQL on the service's database and
// against what the payment provider (the NotchPay stand-in) says it did. Kept apart from the run so
// that a test can plant each kind of violation in a small database and see the checker catch it.
//
// "None analysed twice" needs a witness that a second commit would leave: the run installs
// ANALYSIS_LOG_SQL, a trigger that writes one row per committed change of a pronostic's status or
// result (in the changing transaction, so only committed changes are logged). A pronostic analysed
// twice, refunded after its success, or analysed after its cancellation shows two end transitions
// or a change after its end.

/** Runs one SQL text and returns its rows. */
export type Query = (text: string) => Promise<Record<string, unknown>[]>;

/** What the provider holds: one entry per payment and per transfer it created (by our reference). */
export interface ProviderRecords {
  payments: { reference: string; status: string; amount: number }[];
  transfers: { reference: string; status: string; amount: number }[];
}

/** One statement each (PGlite's extended protocol takes one at a time). */
export const ANALYSIS_LOG_SQL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS chaos_pronostic_log (
    id serial PRIMARY KEY,
    pronostic_id integer NOT NULL,
    old_status text NOT NULL,
    new_status text NOT NULL,
    attempts integer NOT NULL,
    result_changed boolean NOT NULL,
    logged_at timestamptz NOT NULL DEFAULT clock_timestamp()
  )`,
  `CREATE OR REPLACE FUNCTION chaos_log_pronostic() RETURNS trigger AS $$
  BEGIN
    -- result is json (no equality operator): its text is compared.
    IF NEW.status IS DISTINCT FROM OLD.status OR NEW.result::text IS DISTINCT FROM OLD.result::text THEN
      INSERT INTO chaos_pronostic_log (pronostic_id, old_status, new_status, attempts, result_changed)
      VALUES (OLD.id, OLD.status, NEW.status, NEW.attempts, NEW.result::text IS DISTINCT FROM OLD.result::text);
    END IF;
    RETURN NEW;
  END $$ LANGUAGE plpgsql`,
  'DROP TRIGGER IF EXISTS chaos_log_pronostic ON pronostics',
  `CREATE TRIGGER chaos_log_pronostic AFTER UPDATE ON pronostics
    FOR EACH ROW EXECUTE FUNCTION chaos_log_pronostic()`,
];

export interface InvariantReport {
  violations: string[];
  figures: {
    pronostics: number;
    analysed: number;
    cancelledRefunded: number;
    payments: number;
    paymentsCredited: number;
    withdrawals: number;
    withdrawalsPaid: number;
    transfers: number;
  };
}

const n = (value: unknown): number => Number(value ?? 0);

/** Every invariant of the crash test; `violations` is empty when all hold. */
export async function checkInvariants(query: Query, provider: ProviderRecords): Promise<InvariantReport> {
  const violations: string[] = [];
  const fail = (what: string, rows: Record<string, unknown>[]) => {
    for (const row of rows.slice(0, 5)) violations.push(`${what}: ${JSON.stringify(row)}`);
    if (rows.length > 5) violations.push(`${what}: … and ${rows.length - 5} more`);
  };

  // Pronostics: final, debited once, refunded exactly when cancelled, ended exactly once.
  fail(
    'pronostic not final after the drain',
    await query(`SELECT id, attempts, lease_until FROM pronostics WHERE status = 'processing' ORDER BY id`),
  );
  fail(
    'pronostic whose debit is missing or wrong',
    await query(`
      SELECT p.id, p.credits_cost, count(o.id)::int AS debits, sum(o.amount)::int AS debited
      FROM pronostics p LEFT JOIN wallet_operations o
        ON o.reference = 'pronostic:' || p.id || ':debit' AND o.type = 'pronostic_debit'
      GROUP BY p.id HAVING count(o.id) <> 1 OR sum(o.amount) <> -p.credits_cost ORDER BY p.id`),
  );
  fail(
    'pronostic refunded wrongly (a cancelled one exactly once, a successful one never)',
    await query(`
      SELECT p.id, p.status, p.credits_cost, count(o.id)::int AS refunds, sum(o.amount)::int AS refunded
      FROM pronostics p LEFT JOIN wallet_operations o
        ON o.reference = 'pronostic:' || p.id || ':refund' AND o.type = 'pronostic_refund'
      GROUP BY p.id
      HAVING (p.status = 'cancelled' AND (count(o.id) <> 1 OR sum(o.amount) <> p.credits_cost))
          OR (p.status <> 'cancelled' AND count(o.id) <> 0)
      ORDER BY p.id`),
  );
  fail(
    'pronostic analysed or ended more than once (committed end transitions)',
    await query(`
      SELECT p.id, p.status,
        count(l.id) FILTER (WHERE l.old_status = 'processing' AND l.new_status <> 'processing')::int AS ends,
        count(l.id) FILTER (WHERE l.old_status <> 'processing')::int AS changes_after_end,
        count(l.id) FILTER (WHERE l.old_status = 'processing' AND l.new_status = 'processing')::int AS results_while_processing
      FROM pronostics p LEFT JOIN chaos_pronostic_log l ON l.pronostic_id = p.id
      GROUP BY p.id
      HAVING (p.status <> 'processing'
              AND count(l.id) FILTER (WHERE l.old_status = 'processing' AND l.new_status <> 'processing') <> 1)
          OR count(l.id) FILTER (WHERE l.old_status <> 'processing') <> 0
          OR count(l.id) FILTER (WHERE l.old_status = 'processing' AND l.new_status = 'processing') <> 0
      ORDER BY p.id`),
  );

  // Payments: final, credited exactly when successful, and in agreement with the provider.
  fail(
    'payment not final after the drain',
    await query(`SELECT id, reference, checks FROM payments WHERE status = 'pending' ORDER BY id`),
  );
  fail(
    'payment credited wrongly (a successful one exactly once, a failed one never)',
    await query(`
      SELECT p.id, p.status, p.credits, count(o.id)::int AS credits_posted, sum(o.amount)::int AS credited
      FROM payments p LEFT JOIN wallet_operations o
        ON o.reference = 'payment:' || p.id AND o.type = 'pack_purchase'
      GROUP BY p.id
      HAVING (p.status = 'success' AND (count(o.id) <> 1 OR sum(o.amount) <> p.credits))
          OR (p.status <> 'success' AND count(o.id) <> 0)
      ORDER BY p.id`),
  );
  fail(
    'referral commission on a payment that did not succeed, or twice',
    await query(`
      SELECT p.id, p.status, count(o.id)::int AS commissions
      FROM payments p JOIN wallet_operations o
        ON o.reference = 'payment:' || p.id || ':commission' AND o.type = 'referral_commission'
      GROUP BY p.id HAVING p.status <> 'success' OR count(o.id) <> 1 ORDER BY p.id`),
  );
  const ourPayments = await query(`
    SELECT p.id, p.reference, p.status, p.amount,
      EXISTS (SELECT 1 FROM flags f WHERE f.kind = 'late_complete' AND f.target_type = 'payment'
              AND f.target_id = p.id) AS late_flagged
    FROM payments p`);
  const byReference = new Map(ourPayments.map((p) => [String(p.reference), p]));
  const paidAtProvider = new Map<string, number>();
  for (const payment of provider.payments) {
    const ours = byReference.get(payment.reference);
    if (payment.status === 'complete') {
      paidAtProvider.set(payment.reference, (paidAtProvider.get(payment.reference) ?? 0) + 1);
      // Paid after the provider itself said failed: failed in our books, and an admin must see it.
      if (ours?.status === 'failed' && ours.late_flagged === true) continue;
      if (ours?.status !== 'success')
        violations.push(
          `payment paid at the provider but not credited nor flagged: ${payment.reference} (ours: ${ours?.status ?? 'unknown'})`,
        );
      else if (n(ours.amount) !== payment.amount)
        violations.push(`payment ${payment.reference}: provider ${payment.amount} XAF, ours ${ours.amount}`);
    }
  }
  for (const [reference, times] of paidAtProvider) {
    if (times > 1) violations.push(`payment ${reference} paid ${times} times at the provider`);
  }
  for (const ours of ourPayments) {
    if (ours.status === 'success' && !paidAtProvider.has(String(ours.reference)))
      violations.push(`payment credited but not paid at the provider: ${ours.reference}`);
  }

  // Withdrawals: final, debited once, refunded exactly when cancelled, paid out at most once.
  fail(
    'withdrawal not final after the drain',
    await query(`SELECT w.id, w.decision, p.provider_status, w.escalation_reason
                 FROM withdrawals w LEFT JOIN payouts p ON p.withdrawal_id = w.id
                 WHERE w.status = 'pending' ORDER BY w.id`),
  );
  fail(
    'withdrawal whose debit is missing or wrong',
    await query(`
      SELECT w.id, w.amount, count(o.id)::int AS debits, sum(o.amount)::int AS debited
      FROM withdrawals w LEFT JOIN wallet_operations o
        ON o.reference = 'withdrawal:' || w.id AND o.type = 'withdrawal'
      GROUP BY w.id HAVING count(o.id) <> 1 OR sum(o.amount) <> -w.amount ORDER BY w.id`),
  );
  fail(
    'withdrawal refunded wrongly (a cancelled one exactly once, a paid one never)',
    await query(`
      SELECT w.id, w.status, w.amount, count(o.id)::int AS refunds
      FROM withdrawals w LEFT JOIN wallet_operations o
        ON o.reference = 'withdrawal:' || w.id || ':refund' AND o.type = 'withdrawal_refund'
      GROUP BY w.id
      HAVING (w.status = 'cancelled' AND (count(o.id) <> 1 OR sum(o.amount) <> w.amount))
          OR (w.status <> 'cancelled' AND count(o.id) <> 0)
      ORDER BY w.id`),
  );
  const ourWithdrawals = await query('SELECT id, status, decision, amount FROM withdrawals');
  const withdrawalByReference = new Map(ourWithdrawals.map((w) => [`wd-${w.id}`, w]));
  const transfersByReference = new Map<string, { status: string; amount: number }[]>();
  for (const transfer of provider.transfers) {
    const list = transfersByReference.get(transfer.reference) ?? [];
    list.push(transfer);
    transfersByReference.set(transfer.reference, list);
  }
  for (const [reference, transfers] of transfersByReference) {
    const ours = withdrawalByReference.get(reference);
    if (transfers.length > 1)
      violations.push(`withdrawal ${reference}: ${transfers.length} transfers at the provider`);
    if (!ours) violations.push(`transfer ${reference} at the provider matches no withdrawal`);
    else if (ours.decision !== 'approved')
      violations.push(`transfer ${reference} sent for a withdrawal that is ${ours.decision ?? 'undecided'}`);
  }
  for (const ours of ourWithdrawals) {
    const transfers = transfersByReference.get(`wd-${ours.id}`) ?? [];
    const paid = transfers.filter((t) => t.status === 'complete');
    if (ours.status === 'success' && (paid.length !== 1 || paid[0]?.amount !== n(ours.amount)))
      violations.push(`withdrawal ${ours.id} marked paid but the provider paid ${JSON.stringify(paid)}`);
    if (ours.status === 'cancelled' && paid.length > 0)
      violations.push(`withdrawal ${ours.id} refunded although the provider paid it`);
  }

  fail(
    'negative balance',
    await query(
      'SELECT id, credits_balance, money_balance FROM users WHERE credits_balance < 0 OR money_balance < 0',
    ),
  );

  const [counts] = await query(`
    SELECT
      (SELECT count(*) FROM pronostics)::int AS pronostics,
      (SELECT count(*) FROM pronostics WHERE status = 'success')::int AS analysed,
      (SELECT count(*) FROM pronostics WHERE status = 'cancelled')::int AS cancelled,
      (SELECT count(*) FROM payments)::int AS payments,
      (SELECT count(*) FROM payments WHERE status = 'success')::int AS credited,
      (SELECT count(*) FROM withdrawals)::int AS withdrawals,
      (SELECT count(*) FROM withdrawals WHERE status = 'success')::int AS paid`);
  return {
    violations,
    figures: {
      pronostics: n(counts?.pronostics),
      analysed: n(counts?.analysed),
      cancelledRefunded: n(counts?.cancelled),
      payments: n(counts?.payments),
      paymentsCredited: n(counts?.credited),
      withdrawals: n(counts?.withdrawals),
      withdrawalsPaid: n(counts?.paid),
      transfers: provider.transfers.length,
    },
  };
}
