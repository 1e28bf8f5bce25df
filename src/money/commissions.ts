// The one thing money asks of the referral programme: on a payment that succeeded, who earns a
// commission and how much. Money declares the port; the affiliation module states its policy by
// implementing it (godfather, active or not, the percentage), the container passes it in, and
// checkout's settlement posts what it says in its own transaction (checkout/flow.ts, `settle`).
import type { Transaction } from '../db/client.js';
import type { Locale } from '../lib/allowed-values.js';

/** A commission the policy grants on one payment: whose, how many XAF, at what rate, in whose language. */
export interface Commission {
  beneficiaryId: number;
  amount: number;
  percent: number;
  /** The beneficiary's language: the ledger row is theirs, and no request of theirs is there. */
  locale: Locale;
}

export interface CommissionPolicy {
  /** The commission a payment that succeeded earns, read in its settlement's transaction; null for none. */
  commissionOn(
    tx: Transaction,
    payment: { id: number; userId: number; amount: number },
  ): Promise<Commission | null>;
}
