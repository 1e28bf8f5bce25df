// Accounts: the user row is this module's. An account is created on the first code request for a
// phone, with a unique referral code and the welcome credits (a ledger row), in one transaction.
// Balances change only through money's ledger.

import { createHmac, randomInt } from 'node:crypto';
import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import type { Database, Executor, Transaction } from '../../db/client.js';
import type { Locale, UserRole, UserStatus } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { keyedHash } from '../../lib/crypto.js';
import {
  AccountIsDeleted,
  NoAdminLeft,
  NotFound,
  OwnCreditAdjustment,
  Unauthenticated,
  ValidationFailed,
} from '../../lib/errors.js';
import { DEFAULT_LOCALE } from '../../lib/locale.js';
import { adminTexts, catalogueFor, messages } from '../../lib/messages.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { normalizePhone } from '../../lib/phone.js';
import { isoTimestamp } from '../../lib/time.js';
import type { IdempotentCommit } from '../../types/idempotency.js';
import type { Ledger } from '../../types/ledger.js';
import type { ApprovalDesk, ApprovalView } from '../admin/approvals.js';
import type { AuditRecorder } from '../admin/service.js';
import type { UserEventLog } from '../events/service.js';
import { withoutKey } from '../idempotency/commit.js';
import { createPlay, type Play } from './play.js';
import {
  affiliationCodeTaken,
  countOtherActiveAdmins,
  findUserById,
  findUserByPhone,
  findUserLocale,
  findUsersByIds,
  holdActiveUser,
  insertUserIfAbsent,
  lockAdminRoster,
  lockHashesKeyedByAppSecret,
  lockUser,
  markPhoneVerified,
  pageOfUsers,
  phoneWasWelcomed,
  setRekeyedPhoneHash,
  setUserLocale,
  setUserRole,
  setUserRoleReturning,
  setUserStatus,
  signupsByDay,
  tombstoneUser,
  type UserRow,
} from './repository.js';
import type { AdjustCreditsData, AdminUserQuery, CreditAdjustmentInput } from './schemas.js';
import { type AdminUserView, adminUserView } from './views.js';

export type { UserRow } from './repository.js';

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function newAffiliationCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export type { AdminUserView } from './views.js';
/** What an admin's credit adjustment answers: the account, the new balance, the ledger row. */
export type CreditAdjustment = Static<typeof AdjustCreditsData>;

export interface UserServiceDeps {
  db: Database;
  config: Pick<Config, 'welcomeCredits' | 'appSecret' | 'tombstoneKey' | 'responsiblePlay'>;
  clock: Clock;
  /** Writes the audit rows of the back office's actions. */
  audit: AuditRecorder;
  /** Moves balances with their ledger rows (money's ledger). */
  ledger: Ledger;
  /** The user's event log: an admin's credit adjustment is reported in its transaction. */
  events: UserEventLog;
  /** Four eyes: a promotion to admin waits for a second admin. */
  approvals: ApprovalDesk;
}

/** A role change: done (the account), or a promotion waiting for a second admin (the approval). */
export type RoleChange = { user: AdminUserView } | { approval: ApprovalView };

/** The users service: the accounts as the rest of the service reads and writes them, then the back office's actions. */
export function createUserService(deps: UserServiceDeps) {
  const play = createPlay(deps);
  return { ...accounts(deps, play), ...adminActions(deps), ...play };
}

/** The keys of a tombstone's phone hash (the configuration holds both). */
export type PhoneHashKeys = Pick<Config, 'appSecret' | 'tombstoneKey'>;

/**
 * An account's keyed phone hash, which outlives it (a number gets its welcome credits once; a
 * running self-exclusion and the limits follow the number to a new account): HMAC(TOMBSTONE_KEY,
 * HMAC(APP_SECRET, phone)). Nested, so a hash written under APP_SECRET alone is re-keyed into the
 * same value without knowing the phone (`rekeyTombstones`, decision 0125); TOMBSTONE_KEY is never in
 * a backup, so a backup's generated APP_SECRET no longer lets its holder test numbers against it.
 */
export function welcomedPhoneHash(keys: PhoneHashKeys, phone: string): string {
  return rekeyedPhoneHash(keys.tombstoneKey, keyedHash(keys.appSecret, 'welcomed_phone', phone));
}

/** A hash keyed by APP_SECRET alone, keyed by TOMBSTONE_KEY on top. */
function rekeyedPhoneHash(tombstoneKey: string, appSecretHash: string): string {
  return createHmac('sha256', tombstoneKey).update(appSecretHash).digest('hex');
}

/** Accounts: found, created at sign-in, held while a write commits, deleted; the back office's reads. */
function accounts({ db, config, ledger }: UserServiceDeps, play: Play) {
  return {
    /**
     * The account, locked until the deletion's transaction ends (undefined when there is none), after
     * the admin roster: the last-admin check that follows counts what no role change or block can
     * change until the deletion commits.
     */
    async lockForDeletion(tx: Transaction, id: number): Promise<UserRow | undefined> {
      await lockAdminRoster(tx);
      return lockUser(tx, id);
    },

    /** Whether another active admin remains besides `id` (the last admin may not delete their account). */
    async anotherAdminRemains(executor: Executor, id: number): Promise<boolean> {
      return (await countOtherActiveAdmins(executor, id)) > 0;
    },

    /**
     * In a write's transaction, for a request already past authentication: the account is still
     * active, and stays so until the write commits (a deletion waits for it). Unauthenticated when a
     * deletion committed first: its token is revoked by then, and nothing may be written.
     */
    async holdActive(tx: Transaction, id: number): Promise<void> {
      if (!(await holdActiveUser(tx, id))) throw new Unauthenticated();
    },

    /**
     * In the deletion's transaction, on the row `lockForDeletion` returned: it becomes a tombstone
     * (repository `tombstoneUser`), keeping only a keyed hash of its phone.
     */
    tombstone(tx: Transaction, account: { id: number; phone: string | null }): Promise<UserRow> {
      const hash = account.phone === null ? null : welcomedPhoneHash(config, account.phone);
      return tombstoneUser(tx, account.id, hash);
    },

    /**
     * Once, at the start after migration 0037 (then whenever a restore brings older rows): every
     * tombstone hash still keyed by APP_SECRET alone is keyed by TOMBSTONE_KEY on top. Rows are
     * locked and re-checked, so two processes starting at once never key one twice. How many.
     */
    async rekeyTombstones(): Promise<number> {
      return db.transaction(async (tx) => {
        const pending = await lockHashesKeyedByAppSecret(tx);
        for (const row of pending) {
          await setRekeyedPhoneHash(tx, row.id, rekeyedPhoneHash(config.tombstoneKey, row.hash));
        }
        return pending.length;
      });
    },

    findById(id: number): Promise<UserRow | undefined> {
      return findUserById(db, id);
    },

    /**
     * The account's language, for a text sent with no request there to ask (French for an account
     * that no longer exists).
     */
    async localeOf(executor: Executor, id: number): Promise<Locale> {
      return (await findUserLocale(executor, id)) ?? DEFAULT_LOCALE;
    },

    /** The account of a normalized phone, if any. */
    findByPhone(phone: string): Promise<UserRow | undefined> {
      return findUserByPhone(db, phone);
    },

    /** The account's phone verified a sign-in code (in the verifying transaction): it is a returning number. */
    markPhoneVerified(tx: Transaction, userId: number): Promise<void> {
      return markPhoneVerified(tx, userId);
    },

    /**
     * The language a request asked for (its Accept-Language resolved), recorded on the account: at a
     * code request and at sign-in. A request that asked for nothing leaves the account's choice alone.
     */
    async rememberLocale(executor: Executor, userId: number, asked: Locale | undefined): Promise<void> {
      if (asked !== undefined) await setUserLocale(executor, userId, asked);
    },

    /**
     * The account of a normalized phone, created if absent (in the language the request asked for,
     * French when it asked for none); an existing account takes that language when it asked for one.
     * Safe when two requests race for one phone.
     */
    async findOrCreate(
      phone: string,
      country: string,
      asked?: Locale,
    ): Promise<{ user: UserRow; created: boolean }> {
      const existing = await findUserByPhone(db, phone);
      if (existing) {
        if (asked === undefined || existing.locale === asked) return { user: existing, created: false };
        await setUserLocale(db, existing.id, asked);
        return { user: { ...existing, locale: asked }, created: false };
      }
      return db.transaction(async (tx) => {
        let code = newAffiliationCode();
        // 36^8 codes: a collision is rare, but the unique index would turn one into a failed sign-in.
        for (let attempt = 0; attempt < 5 && (await affiliationCodeTaken(tx, code)); attempt++) {
          code = newAffiliationCode();
        }
        const inserted = await insertUserIfAbsent(tx, {
          phone,
          country,
          affiliationCode: code,
          ...(asked ? { locale: asked } : {}),
        });
        if (!inserted) {
          const raced = await findUserByPhone(tx, phone);
          if (!raced) throw new Error('user vanished after a conflicting insert');
          if (asked !== undefined && raced.locale !== asked) await setUserLocale(tx, raced.id, asked);
          return { user: asked ? { ...raced, locale: asked } : raced, created: false };
        }
        // A self-exclusion and limits survive a deletion: the number's tombstones hand them on.
        await play.inherit(tx, inserted.id, welcomedPhoneHash(config, phone));
        // Once per phone: a number whose earlier account was deleted had its welcome then.
        if (config.welcomeCredits > 0 && !(await phoneWasWelcomed(tx, welcomedPhoneHash(config, phone)))) {
          const posted = await ledger.post(tx, {
            userId: inserted.id,
            type: 'welcome_bonus',
            currency: 'credits',
            amount: config.welcomeCredits,
            // The new account's language: the one its first request asked for, French otherwise.
            description: catalogueFor(inserted.locale).accountTexts.welcomeBonus,
          });
          return { user: { ...inserted, creditsBalance: posted?.balanceAfter ?? 0 }, created: true };
        }
        return { user: inserted, created: true };
      });
    },

    /** The account an operator names by phone (CLI); a plain Error, which the CLI prints, when there is none. */
    async accountOfPhone(rawPhone: string): Promise<UserRow> {
      const phone = normalizePhone(rawPhone);
      if (!phone) {
        throw new Error(`"${rawPhone}" is not a valid international phone number (e.g. +237690000000)`);
      }
      const user = await findUserByPhone(db, phone);
      if (!user) throw new Error(`no account has the phone ${phone}`);
      return user;
    },

    /** Roles: `user` by default, `admin` for the back office; read on every request, so it applies at once. */
    async changeRole(userId: number, role: UserRole): Promise<void> {
      await setUserRole(db, userId, role);
    },

    /** The back office's list: search a phone's digits (partial, with or without +), a username or a name. */
    async listForAdmin(query: AdminUserQuery) {
      const page = pageRequest(query);
      const search = query.search?.trim();
      const filter = { search: search === '' ? undefined : search, role: query.role, status: query.status };
      const { rows, total } = await pageOfUsers(db, filter, page);
      return { users: rows.map(adminUserView), meta: pageMeta(page, total) };
    },

    /** The accounts of these ids, by id (who a ticket or a withdrawal is from). */
    async accountsByIds(ids: readonly number[]): Promise<Map<number, UserRow>> {
      const rows = await findUsersByIds(db, [...new Set(ids)]);
      return new Map(rows.map((row) => [row.id, row]));
    },

    /** Sign-ups per UTC day over a range (the back office's figures). */
    signupsByDay(range: { from: string; before: string }) {
      return signupsByDay(db, range);
    },
  };
}

/** The back office's actions on an account, each with its audit row in its transaction. */
function adminActions({ db, audit, ledger, events, approvals }: UserServiceDeps) {
  /**
   * Under the admin roster lock: an active admin about to lose the role or be blocked must leave
   * another active admin behind. The acting admin usually is that one, unless their own deletion
   * (or demotion) committed while this request was on its way.
   */
  async function refuseIfLastAdmin(tx: Transaction, target: UserRow): Promise<void> {
    if (target.role !== 'admin' || target.status !== 'active') return;
    if ((await countOtherActiveAdmins(tx, target.id)) === 0) throw new NoAdminLeft();
  }

  /** Locks the account for an admin's action: NotFound when there is none, AccountIsDeleted for a tombstone. */
  async function lockTarget(tx: Transaction, id: number) {
    const row = await lockUser(tx, id);
    if (!row) throw new NotFound(messages.userNotFound);
    if (row.status === 'deleted') throw new AccountIsDeleted();
    return row;
  }

  /** The role changed, with its audit row (in the caller's transaction). */
  async function changeRoleAudited(
    tx: Transaction,
    admin: { id: number },
    current: UserRow,
    role: UserRole,
    details: Record<string, unknown>,
  ): Promise<AdminUserView> {
    const row = await setUserRoleReturning(tx, current.id, role);
    await audit.record(tx, {
      adminId: admin.id,
      action: 'user.role',
      targetType: 'user',
      targetId: current.id,
      details: { before: { role: current.role }, after: { role }, ...details },
    });
    return adminUserView(row);
  }

  return {
    /**
     * Blocks or unblocks an account, with its audit row, in one transaction. A blocked account's
     * tokens fail from its next request: authentication reads the status, and the status change is
     * announced to every process's token cache (migration 0012's trigger). An admin never blocks
     * themselves. Already so: nothing changes, no audit row.
     */
    async setStatus(admin: { id: number }, id: number, status: UserStatus): Promise<AdminUserView> {
      if (status === 'blocked' && admin.id === id) {
        throw ValidationFailed.field('id', messages.cannotBlockSelf);
      }
      return db.transaction(async (tx) => {
        await lockAdminRoster(tx);
        const current = await lockTarget(tx, id);
        if (current.status === status) return adminUserView(current);
        if (status === 'blocked') await refuseIfLastAdmin(tx, current);
        const row = await setUserStatus(tx, id, status);
        await audit.record(tx, {
          adminId: admin.id,
          action: status === 'blocked' ? 'user.block' : 'user.unblock',
          targetType: 'user',
          targetId: id,
          details: { before: { status: current.status }, after: { status } },
        });
        return adminUserView(row);
      });
    },

    /**
     * Changes an account's role; an admin never changes their own (so the last admin stays one). A
     * promotion to admin is not done here: it waits for a second admin (`confirmPromotion`; four
     * eyes, DESIGN "Admin routes and the back office"); a demotion is one admin's.
     */
    async setRoleAsAdmin(admin: { id: number }, id: number, role: UserRole): Promise<RoleChange> {
      if (admin.id === id) throw ValidationFailed.field('role', messages.cannotChangeOwnRole);
      return db.transaction(async (tx) => {
        await lockAdminRoster(tx);
        const current = await lockTarget(tx, id);
        if (current.role === role) return { user: adminUserView(current) };
        if (role === 'admin') return { approval: await approvals.request(tx, admin, 'user.promote', id) };
        await refuseIfLastAdmin(tx, current);
        return { user: await changeRoleAudited(tx, admin, current, role, {}) };
      });
    },

    /**
     * A second admin confirms a pending promotion: the account becomes an admin, the approval is
     * confirmed, both audited, in one transaction. 403 for the admin who asked, 409 once decided or
     * for a deleted account.
     */
    async confirmPromotion(
      admin: { id: number },
      approvalId: number,
      id: number,
    ): Promise<{ approval: ApprovalView; user: AdminUserView }> {
      return db.transaction(async (tx) => {
        await lockAdminRoster(tx);
        const approval = await approvals.lockForDecision(tx, approvalId, admin, {
          action: 'user.promote',
          targetId: id,
        });
        const current = await lockTarget(tx, id);
        const details = { approval_id: approval.id, requested_by: approval.requestedBy };
        const user =
          current.role === 'admin'
            ? adminUserView(current)
            : await changeRoleAudited(tx, admin, current, 'admin', details);
        return { approval: await approvals.decide(tx, approval, admin, 'confirmed'), user };
      });
    },

    /**
     * Adds (or, negative, removes) credits as an `admin_adjustment` ledger row carrying the reason,
     * with its audit row, in one transaction. A debit below zero is a 422 on `amount`, nothing changed;
     * an admin's own account is another admin's to adjust (403, nothing changed).
     */
    async adjustCredits(
      admin: { id: number },
      id: number,
      input: CreditAdjustmentInput,
      commit: IdempotentCommit<CreditAdjustment> = withoutKey,
    ): Promise<CreditAdjustment> {
      if (id === admin.id) throw new OwnCreditAdjustment();
      if (input.amount === 0) throw ValidationFailed.field('amount', messages.adjustAmountZero);
      const reason = input.reason.trim();
      if (reason.length < 3) throw ValidationFailed.field('reason', messages.blankField);
      return db.transaction(async (tx) => {
        const current = await lockTarget(tx, id);
        const posted = await ledger.post(tx, {
          userId: id,
          type: 'admin_adjustment',
          currency: 'credits',
          amount: input.amount,
          description: reason,
          // A keyed request's claim names its one ledger row (unique reference): one key, one change.
          reference: commit.keyId === null ? null : `admin-credits:${commit.keyId}`,
        });
        if (!posted) {
          throw new ValidationFailed({ amount: [adminTexts.adjustBelowZero(current.creditsBalance)] });
        }
        await audit.record(tx, {
          adminId: admin.id,
          action: 'user.credits',
          targetType: 'user',
          targetId: id,
          details: {
            amount: input.amount,
            reason,
            operation_id: posted.id,
            before: { credits_balance: current.creditsBalance },
            after: { credits_balance: posted.balanceAfter },
          },
        });
        const result: CreditAdjustment = {
          user: adminUserView({ ...current, creditsBalance: posted.balanceAfter }),
          credits_balance: posted.balanceAfter,
          operation: {
            id: posted.id,
            type: 'admin_adjustment',
            currency: 'credits',
            amount: input.amount,
            balance_after: posted.balanceAfter,
            description: reason,
            reference: commit.keyId === null ? null : `admin-credits:${commit.keyId}`,
            created_at: isoTimestamp(posted.createdAt),
          },
        };
        await events.append(tx, id, 'credits.adjusted', result.operation);
        await commit.store(tx, result);
        return result;
      });
    },
  };
}

export type UserService = ReturnType<typeof createUserService>;
