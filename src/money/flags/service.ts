// The flags an admin works through: contradictions checkout and cash-out raised (raise.ts) in the
// transactions that found them, listed open first and resolved each with a note, audited. Resolving a
// `late_complete` payment may credit it once: checkout's compensation for a payment it failed that
// the provider completed after all.
import type { Database } from '../../db/client.js';
import {
  FlagAlreadyResolved,
  MismatchedPaymentCredit,
  NotFound,
  OwnFlag,
  ValidationFailed,
} from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import type { AuditRecorder } from '../../modules/admin/service.js';
import type { WithdrawalService } from '../cash-out/withdrawals.js';
import type { PaymentService } from '../checkout/service.js';
import { flagView } from './raise.js';
import { countFlags, lockFlag, pageOfFlags, paymentMismatchOf, resolveFlagRow } from './repository.js';
import type { FlagsQuery, ResolveFlagInput } from './schemas.js';

export interface FlagServiceDeps {
  db: Database;
  audit: AuditRecorder;
  /** A flag's payment: its owner (never resolved by that admin), and the late credit. */
  payments: Pick<PaymentService, 'ownerOf' | 'creditLatePayment'>;
  /** A flag's withdrawal: its owner. */
  withdrawals: Pick<WithdrawalService, 'ownerOf'>;
}

export function createFlagService({ db, audit, payments, withdrawals }: FlagServiceDeps) {
  // An admin never resolves a flag about their own payment or withdrawal (separation of duties).
  const owners = { payment: payments, withdrawal: withdrawals };
  return {
    async list(query: FlagsQuery) {
      const page = pageRequest(query);
      const filter = { status: query.status, kind: query.kind, targetType: query.target_type };
      const { rows, total } = await pageOfFlags(db, filter, page);
      return { flags: rows.map(flagView), meta: pageMeta(page, total) };
    },

    /** Open flags, for the admin stats. */
    openCount(): Promise<number> {
      return countFlags(db, { status: 'open' });
    },

    /**
     * Resolves an open flag with the admin's note (OwnFlag when its payment or withdrawal is the
     * admin's own; FlagAlreadyResolved when it is not open), audited
     * as `flag.resolve` in the same transaction; `credit` (late_complete payment flags only) credits
     * the payment once, unless it failed on an amount or currency mismatch (MismatchedPaymentCredit).
     */
    async resolve(admin: { id: number }, id: number, input: ResolveFlagInput) {
      const note = input.message.trim();
      if (note.length < 3) throw ValidationFailed.field('message', messages.blankField);
      return db.transaction(async (tx) => {
        const flag = await lockFlag(tx, id);
        if (!flag) throw new NotFound(messages.flagNotFound);
        if ((await owners[flag.targetType].ownerOf(tx, flag.targetId)) === admin.id) throw new OwnFlag();
        if (flag.status !== 'open') throw new FlagAlreadyResolved();
        let credited: { credits: number; userId: number } | null = null;
        if (input.credit) {
          if (flag.kind !== 'late_complete' || flag.targetType !== 'payment') {
            throw ValidationFailed.field('credit', messages.flagCreditNotAllowed);
          }
          // Completed after all, but not for the price we set: the pack is never granted this way.
          const mismatch = await paymentMismatchOf(tx, flag.targetId);
          if (mismatch) throw new MismatchedPaymentCredit(mismatch);
          credited = await payments.creditLatePayment(tx, flag.targetId);
        }
        const row = await resolveFlagRow(tx, id, { note, resolvedBy: admin.id });
        await audit.record(tx, {
          adminId: admin.id,
          action: 'flag.resolve',
          targetType: 'flag',
          targetId: id,
          details: {
            kind: flag.kind,
            target_type: flag.targetType,
            target_id: flag.targetId,
            message: note,
            credited: credited?.credits ?? 0,
          },
        });
        return flagView(row);
      });
    },
  };
}

export type FlagService = ReturnType<typeof createFlagService>;
