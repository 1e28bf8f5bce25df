// The referral programme. A user applies a godfather's code once (no cycles, checked under one lock);
// the godfather earns REFERRAL_COMMISSION_PERCENT of each pack a godchild pays, in XAF: this module
// states that policy (`createCommissionPolicy`, money's one port), and money posts it inside the
// payment's own settlement transaction. That money is withdrawn by mobile money, money's cash-out;
// the overview here shows its referral wallet beside the godchildren.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, Transaction } from '../../db/client.js';
import { ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { isoTimestamp } from '../../lib/time.js';
import type { CommissionPolicy, Money } from '../../money/index.js';
import type { AuthUser } from '../../types/auth.js';
import { avatarOf } from '../users/avatars.js';
import { publicName } from '../users/views.js';
import {
  countActiveGodchildren,
  countAllGodchildren,
  findGodfatherOf,
  findUserByAffiliationCode,
  isInGodfatherChain,
  listGodchildren,
  lockAffiliationGraph,
  lockGodfatherLink,
  referralLinksOf,
  releaseReferralLinks,
  setGodfather,
} from './repository.js';

/** The godchildren list is not paginated (spec); it shows at most this many, newest first. */
export const GODCHILDREN_MAX = 1000;

/**
 * The commission policy money calls when a payment succeeds, in its settlement's transaction: the
 * payer's godfather earns `referralCommissionPercent` of it, unless blocked (or it rounds to nothing).
 */
export function createCommissionPolicy(deps: {
  logger: FastifyBaseLogger;
  config: Pick<Config, 'referralCommissionPercent'>;
}): CommissionPolicy {
  const percent = deps.config.referralCommissionPercent;
  return {
    async commissionOn(tx: Transaction, payment) {
      const godfather = await findGodfatherOf(tx, payment.userId);
      if (!godfather) return null;
      if (godfather.status !== 'active') {
        const log = deps.logger.child({ payment_id: payment.id, godfather_id: godfather.id });
        log.info('referral commission withheld: the godfather is blocked');
        return null;
      }
      const amount = Math.floor((payment.amount * percent) / 100);
      if (amount <= 0) return null;
      return { beneficiaryId: godfather.id, amount, percent, locale: godfather.locale };
    },
  };
}

export interface AffiliationServiceDeps {
  db: Database;
  /** The money capability's referral wallet: the balance, what was earned, the withdrawal minimum. */
  money: Pick<Money['withdrawals'], 'referralWallet'>;
}

export function createAffiliationService(deps: AffiliationServiceDeps) {
  const { db } = deps;

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

    async overview(user: AuthUser) {
      const [wallet, godchildren] = await Promise.all([
        deps.money.referralWallet(user.id),
        countActiveGodchildren(db, user.id),
      ]);
      return {
        wallet: { balance: wallet.balance, total_earned: wallet.totalEarned },
        godchildren_count: godchildren,
        withdraw_min: wallet.withdrawMin,
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
