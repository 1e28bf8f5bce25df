// A withdrawal as its owner sees it and as the back office sees it: each view returns its schema's
// static type (schemas.ts), so the shape is written once, in the schema.
import { isoTimestamp } from '../../lib/time.js';
import { publicName } from '../../modules/users/views.js';
import type { PayoutView } from './payout-schemas.js';
import type { AdminWithdrawalView, WithdrawalView } from './schemas.js';
import type { WithdrawalRow } from './withdrawal-repository.js';

/** A withdrawal as its owner sees it (the list's item, and the data of the withdrawal events). */
export function withdrawalView(row: WithdrawalRow): WithdrawalView {
  return {
    id: row.id,
    amount: row.amount,
    status: row.status,
    message: row.message,
    meta: { phone: row.phone, operator: { name: row.operator.name, icon: row.operator.icon } },
    created_at: isoTimestamp(row.createdAt),
  };
}

/** Who asked, as the back office lists them (undefined: the account is gone). */
export interface Requester {
  phone: string | null;
  name: string | null;
  username: string | null;
  status: string;
}

/** A withdrawal with its requester, the admin's decision, its payout and its escalation. */
export function adminWithdrawalView(
  row: WithdrawalRow,
  account: Requester | undefined,
  payout: PayoutView | undefined,
): AdminWithdrawalView {
  return {
    ...withdrawalView(row),
    user: {
      id: row.userId,
      phone: account?.phone ?? null,
      name: account ? publicName(account) : null,
      status: account?.status ?? null,
    },
    decision:
      row.decision === null
        ? null
        : {
            status: row.decision,
            admin_id: row.decidedBy,
            message: row.decisionMessage,
            decided_at: row.decidedAt === null ? null : isoTimestamp(row.decidedAt),
          },
    payout: payout ?? null,
    escalated: row.escalatedAt !== null,
    escalation:
      row.escalatedAt === null
        ? null
        : { reason: row.escalationReason, escalated_at: isoTimestamp(row.escalatedAt) },
  };
}
