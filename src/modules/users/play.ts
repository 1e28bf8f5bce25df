// Responsible play on the account (issue 54, DESIGN "Responsible play"): the date of birth (set once
// by its owner, changed after only by an admin, audited), the spending limits (a lower or new one at
// once, a higher one or a removal after 72 h), the self-exclusion (only ever lengthened), and what a
// deleted account leaves to a new one on the same number through its tombstone's keyed phone hash.
// Checkout holds the account and reads it with `holdForCheckout` in its own transaction; `refuseIfSelfExcluded` is the one guard
// every action a pause forbids calls (a new analysis, a slip's save).
import type { Config } from '../../config.js';
import type { Database, Executor, Transaction } from '../../db/client.js';
import { type SpendingPeriod, spendingPeriods } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import {
  AccountIsDeleted,
  NotFound,
  PlayRefused,
  Unauthenticated,
  ValidationFailed,
} from '../../lib/errors.js';
import { messages, playTexts } from '../../lib/messages.js';
import { acceptableBirthDate, ageOn, doualaDate } from '../../lib/play-calendar.js';
import { addSeconds, isoTimestamp } from '../../lib/time.js';
import type { CheckoutAccount } from '../../types/play.js';
import type { AuditRecorder } from '../admin/service.js';
import {
  holdCheckoutAccount,
  type LimitTerms,
  lengthenExclusion,
  limitRowsOf,
  playColumnsOf,
  setBirthDate,
  tombstonePlayOf,
  writeLimit,
} from './play-repository.js';
import { lockUser } from './repository.js';

/** DESIGN: a higher limit, or a removal, applies this long after it is asked for. */
export const LIMIT_RAISE_DELAY_SECONDS = 72 * 3600;

export type Limits = Record<SpendingPeriod, number | null>;
export type PendingLimits = Record<SpendingPeriod, { amount: number | null; effective_at: string } | null>;
export interface LimitsView {
  limits: Limits;
  pending: PendingLimits;
}

/** How the console reads an account's age: no date, under AGE_MINIMUM, or old enough. */
export type AgeStatus = 'unknown' | 'under_age' | 'adult';

export interface PlayDeps {
  db: Database;
  clock: Clock;
  audit: AuditRecorder;
  config: Pick<Config, 'responsiblePlay'>;
}

/** A limit row as it stands at `now`: a pending change whose time has come counts as applied. */
function settled(
  row: LimitTerms,
  now: Date,
): { amount: number | null; pending: PendingLimits[SpendingPeriod] } {
  if (row.pendingAt === null) return { amount: row.amount, pending: null };
  if (Date.parse(row.pendingAt) <= now.getTime()) return { amount: row.pendingAmount, pending: null };
  return {
    amount: row.amount,
    pending: { amount: row.pendingAmount, effective_at: isoTimestamp(row.pendingAt) },
  };
}

/** The limits and pending changes of an account's rows at `now`. */
export function limitsView(rows: readonly LimitTerms[], now: Date): LimitsView {
  const view: LimitsView = {
    limits: { daily: null, weekly: null, monthly: null },
    pending: { daily: null, weekly: null, monthly: null },
  };
  for (const row of rows) {
    const { amount, pending } = settled(row, now);
    view.limits[row.period] = amount;
    view.pending[row.period] = pending;
  }
  return view;
}

/**
 * The new row of one period after the user asks for `asked` (a number, or null to remove): lower or
 * new at once (a pending raise is dropped), higher or removed after 72 h. Asking again for the
 * change already pending keeps its date.
 */
export function nextLimit(
  current: { amount: number | null; pending: PendingLimits[SpendingPeriod] },
  asked: number | null,
  now: Date,
): { amount: number | null; pendingAmount: number | null; pendingAt: string | null } {
  const at = current.amount;
  if (asked !== null && (at === null || asked <= at))
    return { amount: asked, pendingAmount: null, pendingAt: null };
  if (asked === null && at === null) return { amount: null, pendingAmount: null, pendingAt: null };
  if (current.pending && current.pending.amount === asked) {
    return { amount: at, pendingAmount: asked, pendingAt: current.pending.effective_at };
  }
  return {
    amount: at,
    pendingAmount: asked,
    pendingAt: addSeconds(now, LIMIT_RAISE_DELAY_SECONDS).toISOString(),
  };
}

export function createPlay({ db, clock, audit, config }: PlayDeps) {
  const minimum = config.responsiblePlay.ageMinimum;

  function ageStatus(birthDate: string | null): AgeStatus {
    if (birthDate === null) return 'unknown';
    return ageOn(birthDate, doualaDate(clock.now())) >= minimum ? 'adult' : 'under_age';
  }

  return {
    /**
     * In the checkout's transaction: the account held active (as `holdActive`: 401 once deleted or
     * blocked) with its date of birth, self-exclusion, limits in force and language, one statement.
     */
    async holdForCheckout(tx: Transaction, userId: number): Promise<CheckoutAccount> {
      const row = await holdCheckoutAccount(tx, userId);
      if (row?.status !== 'active') throw new Unauthenticated();
      return {
        play: {
          birthDate: row.birthDate,
          selfExcludedUntil: row.selfExcludedUntil,
          limits: limitsView(row.limits ?? [], clock.now()).limits,
        },
        locale: row.locale,
      };
    },

    /**
     * The guard of every action a self-exclusion forbids (a checkout, a new analysis, a slip's save):
     * 403 `self_excluded` with `until` while it lasts. When it ends, nothing restarts by itself.
     */
    async refuseIfSelfExcluded(executor: Executor, userId: number): Promise<void> {
      const until = (await playColumnsOf(executor, userId))?.selfExcludedUntil ?? null;
      if (until !== null && Date.parse(until) > clock.now().getTime()) {
        throw new PlayRefused('self_excluded', isoTimestamp(until));
      }
    },

    /** Whether AGE_MINIMUM is met by a date of birth (checkout's age gate; the console). */
    ageStatus,

    /** The account's limits and pending changes (GET /api/user/wallet/limits). */
    async limitsOf(user: { id: number }): Promise<LimitsView> {
      return limitsView(await limitRowsOf(db, user.id), clock.now());
    },

    /** Sets any of the three limits (POST /api/user/wallet/limits); the account's rows locked meanwhile. */
    async setLimits(user: { id: number }, input: Partial<Limits>): Promise<LimitsView> {
      const asked = spendingPeriods.filter((period) => input[period] !== undefined);
      if (asked.length === 0) throw ValidationFailed.field('body', playTexts.limitsNothing);
      const now = clock.now();
      return db.transaction(async (tx) => {
        await lockUser(tx, user.id);
        const rows = await limitRowsOf(tx, user.id);
        for (const period of asked) {
          const row = rows.find((candidate) => candidate.period === period);
          const current = row ? settled(row, now) : { amount: null, pending: null };
          await writeLimit(tx, {
            userId: user.id,
            period,
            ...nextLimit(current, input[period] ?? null, now),
          });
        }
        return limitsView(await limitRowsOf(tx, user.id), now);
      });
    },

    /** A confirmed self-exclusion of `days` days from now: it only ever lengthens; its end. */
    async excludeFor(tx: Transaction, userId: number, days: number): Promise<string> {
      const until = addSeconds(clock.now(), days * 24 * 3600).toISOString();
      return isoTimestamp(await lengthenExclusion(tx, userId, until));
    },

    /** An admin's change of an account's date of birth, with its audit row (the owner sets it once). */
    async changeBirthDate(admin: { id: number }, id: number, birthDate: string) {
      if (!acceptableBirthDate(birthDate, doualaDate(clock.now()))) {
        throw ValidationFailed.field('birth_date', playTexts.birthDateInvalid);
      }
      return db.transaction(async (tx) => {
        const current = await lockUser(tx, id);
        if (!current) throw new NotFound(messages.userNotFound);
        if (current.status === 'deleted') throw new AccountIsDeleted();
        const row = await setBirthDate(tx, id, birthDate);
        await audit.record(tx, {
          adminId: admin.id,
          action: 'user.birth_date',
          targetType: 'user',
          targetId: id,
          details: { before: { birth_date: current.birthDate }, after: { birth_date: birthDate } },
        });
        return { id: row.id, birth_date: birthDate, age_status: ageStatus(birthDate) };
      });
    },

    /** What the console shows of an account: age status, limits with pending changes, exclusion; undefined when there is no account. */
    async playOfAccount(id: number) {
      const columns = await playColumnsOf(db, id);
      if (!columns) return undefined;
      return {
        birth_date: columns.birthDate,
        age_status: ageStatus(columns.birthDate),
        self_excluded_until:
          columns.selfExcludedUntil === null ? null : isoTimestamp(columns.selfExcludedUntil),
        ...limitsView(await limitRowsOf(db, id), clock.now()),
      };
    },

    /**
     * In a new account's transaction: what the tombstones of its number (the keyed phone hash) leave
     * it, a self-exclusion still running and the limits with their pending changes.
     */
    async inherit(tx: Transaction, userId: number, phoneHash: string): Promise<void> {
      const left = await tombstonePlayOf(tx, phoneHash);
      if (left.until !== null && Date.parse(left.until) > clock.now().getTime()) {
        await lengthenExclusion(tx, userId, left.until);
      }
      for (const row of left.limits) {
        const { amount, pendingAmount, pendingAt, period } = row;
        await writeLimit(tx, { userId, period, amount, pendingAmount, pendingAt });
      }
    },
  };
}

export type Play = ReturnType<typeof createPlay>;
