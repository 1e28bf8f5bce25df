// The referral programme. A user applies a godfather's code once (no cycles, checked under one lock);
// the godfather earns REFERRAL_COMMISSION_PERCENT of each pack a godchild pays, in XAF, inside the
// payment's own settlement transaction. That money is withdrawn by mobile money: the withdrawals
// module's business (request, decision, payout); the overview here only reads what it paid out.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, Transaction } from '../../db/client.js';
import { ValidationFailed } from '../../lib/errors.js';
import { catalogueFor, messages } from '../../lib/messages.js';
import { isoTimestamp } from '../../lib/time.js';
import type { AuthUser } from '../../types/auth.js';
import { avatarOf } from '../users/avatars.js';
import { publicName } from '../users/views.js';
import type { Ledger } from '../wallet/ledger.js';
import {
  countActiveGodchildren,
  countAllGodchildren,
  findGodfatherOf,
  findUserByAffiliationCode,
  isInGodfatherChain,
  listGodchildren,
  lockAffiliationGraph,
  lockGodfatherLink,
  moneyBalanceOf,
  referralLinksOf,
  releaseReferralLinks,
  setGodfather,
} from './repository.js';

/** The godchildren list is not paginated (spec); it shows at most this many, newest first. */
export const GODCHILDREN_MAX = 1000;

/** What the overview needs of the withdrawals module: what it paid out (`total_earned`). */
export interface PaidWithdrawals {
  paidTotal(userId: number): Promise<number>;
}

export interface AffiliationServiceDeps {
  db: Database;
  /** Moves balances with their ledger rows (the wallet's ledger): the commissions. */
  ledger: Ledger;
  logger: FastifyBaseLogger;
  config: Pick<Config, 'referralCommissionPercent' | 'withdrawMin'>;
  withdrawals: PaidWithdrawals;
}

export function createAffiliationService(deps: AffiliationServiceDeps) {
  const { db, logger, config } = deps;

  return {
    /** In an account deletion's transaction: godchildren freed of their godfather, and the user of theirs. */
    releaseReferralLinks(tx: Transaction, userId: number): Promise<number> {
      return releaseReferralLinks(tx, userId);
    },

    /** The user's referral links, for their data export. */
    async exportReferrals(userId: number) {
      const links = await referralLinksOf(db, userId);
      return {
        affiliation_code: links?.affiliationCode ?? null,
        godfather_id: links?.godfatherId ?? null,
        godchildren_ids: links?.godchildren ?? [],
      };
    },

    /**
     * Makes the owner of `rawCode` the user's godfather: once, not oneself, never a cycle of any
     * length, never a blocked account. Every apply takes one lock, so two applies that would close a
     * cycle together cannot both pass the check.
     */
    async applyCode(user: AuthUser, rawCode: string): Promise<{ name: string }> {
      const code = rawCode.trim().toUpperCase();
      if (!/^[A-Z0-9]{8}$/.test(code))
        throw ValidationFailed.field('affiliation_code', messages.affiliationCodeInvalid);
      return db.transaction(async (tx) => {
        await lockAffiliationGraph(tx);
        const own = await lockGodfatherLink(tx, user.id);
        if (own?.godfatherId != null) {
          throw ValidationFailed.field('affiliation_code', messages.affiliationAlreadyApplied);
        }
        const godfather = await findUserByAffiliationCode(tx, code);
        if (godfather?.status !== 'active') {
          throw ValidationFailed.field('affiliation_code', messages.affiliationCodeUnknown);
        }
        if (godfather.id === user.id)
          throw ValidationFailed.field('affiliation_code', messages.affiliationCodeOwn);
        if (await isInGodfatherChain(tx, godfather.id, user.id)) {
          throw ValidationFailed.field('affiliation_code', messages.affiliationCycle);
        }
        if (!(await setGodfather(tx, user.id, godfather.id))) {
          throw ValidationFailed.field('affiliation_code', messages.affiliationAlreadyApplied);
        }
        return { name: publicName(godfather) };
      });
    },

    /**
     * The godfather's commission on a godchild's settled pack payment, in the settlement's own
     * transaction (the payments module calls it once per payment; the reference makes twice impossible).
     */
    async postReferralCommission(
      tx: Transaction,
      payment: { id: number; userId: number; amount: number },
    ): Promise<void> {
      const godfather = await findGodfatherOf(tx, payment.userId);
      if (!godfather) return;
      const log = logger.child({ payment_id: payment.id, godfather_id: godfather.id });
      if (godfather.status !== 'active') {
        log.info('referral commission withheld: the godfather is blocked');
        return;
      }
      const commission = Math.floor((payment.amount * config.referralCommissionPercent) / 100);
      if (commission <= 0) return;
      await deps.ledger.post(tx, {
        userId: godfather.id,
        type: 'referral_commission',
        currency: 'XAF',
        amount: commission,
        // The godfather's language: no request of his is there.
        description: catalogueFor(godfather.locale).withdrawalTexts.commission(
          config.referralCommissionPercent,
        ),
        reference: `payment:${payment.id}:commission`,
      });
      log.info({ commission }, 'referral commission earned');
    },

    async overview(user: AuthUser) {
      const [balance, paid, godchildren] = await Promise.all([
        moneyBalanceOf(db, user.id),
        deps.withdrawals.paidTotal(user.id),
        countActiveGodchildren(db, user.id),
      ]);
      return {
        wallet: { balance, total_earned: balance + paid },
        godchildren_count: godchildren,
        withdraw_min: config.withdrawMin,
      };
    },

    async godchildren(user: AuthUser) {
      const rows = await listGodchildren(db, user.id, GODCHILDREN_MAX);
      return rows.map((row) => ({
        id: row.id,
        name: publicName(row),
        phone: row.phone,
        avatar: avatarOf(row),
        created_at: isoTimestamp(row.createdAt),
      }));
    },

    /** Every godchild of a user, blocked ones included (the back office's user detail). */
    godchildrenCountOf(userId: number): Promise<number> {
      return countAllGodchildren(db, userId);
    },
  };
}

export type AffiliationService = ReturnType<typeof createAffiliationService>;
