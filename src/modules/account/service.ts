// An account's deletion and its data export (issue 30, DESIGN.md "Accounts"). The deletion is one
// workflow over the modules that hold the user's data, each through its own service, in one
// transaction: refusals checked again under the account's lock, a remaining money balance forfeited
// through the ledger (a new row, history never rewritten), tokens revoked, personal rows deleted or
// cut down, the user row made a tombstone, the audit row written. Stored files cannot join a
// transaction: their keys are recorded in it (account_file_deletions), removed after the commit, and
// whatever the storage refused is retried by the housekeeping. The export streams one JSON document
// read page by page, at most once an hour per user (the last export's time is in the database).
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import {
  AccountDeletionRefused,
  InvalidCode,
  LastAdmin,
  RateLimited,
  Unauthenticated,
} from '../../lib/errors.js';
import { accountTexts, catalogueFor, messages } from '../../lib/messages.js';
import { isoTimestamp } from '../../lib/time.js';
import type { PaymentService, WalletService, WithdrawalService } from '../../money/index.js';
import type { StorageDriver } from '../../providers/storage/index.js';
import type { Ledger } from '../../types/ledger.js';
import type { AdminService, AuditRecorder } from '../admin/service.js';
import type { AffiliationService } from '../affiliation/service.js';
import type { Client, OtpService } from '../auth/otp-service.js';
import type { TokenService } from '../auth/tokens.js';
import type { DeviceService } from '../devices/service.js';
import type { EventService } from '../events/service.js';
import type { IdempotencyService } from '../idempotency/service.js';
import type { PronosticService } from '../pronostics/service.js';
import type { SlipService } from '../slips/service.js';
import type { SupportService } from '../support/service.js';
import { avatarKeyOf } from '../users/avatars.js';
import type { UserRow, UserService } from '../users/service.js';
import { fullUserView } from '../users/views.js';
import {
  claimExport,
  deleteExportSlot,
  fileDeletionFailed,
  forgetFileDeletions,
  pendingFileDeletions,
  recordFileDeletions,
} from './repository.js';
import type { DeleteAccountInput, DeletionCodeInput, SelfExclusionInput } from './schemas.js';

/** DESIGN.md: at most one export an hour per user. */
export const EXPORT_INTERVAL_SECONDS = 3600;
/** Rows read per query while the export streams. */
export const EXPORT_PAGE_SIZE = 500;
/** Files the housekeeping tries to remove per run. */
const FILE_RETRY_BATCH = 100;

export interface AccountServiceDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  storage: StorageDriver;
  ledger: Ledger;
  audit: AuditRecorder & Pick<AdminService, 'forgetPhones'>;
  otp: Pick<
    OtpService,
    'sendDeletionCode' | 'useDeletionCode' | 'forgetCodes' | 'sendExclusionCode' | 'useExclusionCode'
  >;
  tokens: Pick<TokenService, 'revokeAllOf' | 'cache'>;
  users: Pick<
    UserService,
    'findById' | 'lockForDeletion' | 'anotherAdminRemains' | 'tombstone' | 'holdActive' | 'excludeFor'
  >;
  pronostics: Pick<PronosticService, 'forgetOwner' | 'exportPage'>;
  slips: Pick<SlipService, 'exportPage'>;
  support: Pick<SupportService, 'forgetOwner' | 'exportPage'>;
  events: Pick<EventService, 'forgetUser' | 'forgetPhones'>;
  devices: Pick<DeviceService, 'forgetAll' | 'exportPage'>;
  idempotency: Pick<IdempotencyService, 'forgetUser'>;
  affiliation: Pick<AffiliationService, 'releaseReferralLinks' | 'exportReferrals'>;
  withdrawals: Pick<WithdrawalService, 'blockingDeletion' | 'exportPage' | 'phonesOf'>;
  payments: Pick<PaymentService, 'pendingForDeletion' | 'exportPage' | 'phonesOf'>;
  wallet: Pick<WalletService, 'exportPage'>;
}

export function createAccountService(deps: AccountServiceDeps) {
  const { db, clock, logger, storage, ledger, audit, otp, tokens, users } = deps;

  /**
   * The refusals (DESIGN.md): the last admin (403), a pending payment or withdrawal, an escalated
   * payout, a money balance not given up (409). Run before the code is used (a refused request
   * costs no code) and again under the account's lock in the deletion's transaction.
   */
  async function refuseIfBlocked(
    executor: Executor,
    account: UserRow,
    input: DeleteAccountInput,
    pendingPayments: number,
  ): Promise<void> {
    if (account.role === 'admin' && !(await users.anotherAdminRemains(executor, account.id))) {
      throw new LastAdmin();
    }
    if (pendingPayments > 0) {
      throw new AccountDeletionRefused('pending_payment', messages.accountDeletePendingPayment);
    }
    const withdrawals = await deps.withdrawals.blockingDeletion(executor, account.id);
    if (withdrawals.escalated > 0) {
      throw new AccountDeletionRefused('escalated_payout', messages.accountDeleteEscalatedPayout);
    }
    if (withdrawals.pending > 0) {
      throw new AccountDeletionRefused('pending_withdrawal', messages.accountDeletePendingWithdrawal);
    }
    if (account.moneyBalance > 0 && input.forfeit_balance !== true) {
      throw new AccountDeletionRefused(
        'balance',
        accountTexts.balanceRemains(account.moneyBalance),
        account.moneyBalance,
      );
    }
  }

  /** Removes stored files whose rows are gone; a refusal is recorded for the next try, never thrown. */
  async function removeFiles(keys: readonly string[]): Promise<number> {
    const removed: string[] = [];
    for (const key of keys) {
      try {
        await storage.delete(key);
        removed.push(key);
      } catch (error) {
        logger.warn({ err: error, key }, 'a deleted account’s file could not be removed; retried later');
        await fileDeletionFailed(db, key, error instanceof Error ? error.message : String(error));
      }
    }
    await forgetFileDeletions(db, removed);
    return removed.length;
  }

  return {
    /** Sends the user a code confirming the deletion (the sign-in code's limits and budgets). */
    async sendDeletionCode(user: { id: number }, input: DeletionCodeInput, client: Client): Promise<void> {
      await otp.sendDeletionCode(user, input.method ?? 'sms', client);
    },

    /** Sends the user a code confirming a self-exclusion (as a deletion's, issue 54). */
    async sendExclusionCode(user: { id: number }, input: DeletionCodeInput, client: Client): Promise<void> {
      await otp.sendExclusionCode(user, input.method ?? 'sms', client);
    },

    /**
     * A self-exclusion of `days` days, confirmed with its code (InvalidCode otherwise): it only ever
     * lengthens the pause under way; its end.
     */
    async excludeSelf(
      user: { id: number },
      input: SelfExclusionInput,
      client: Pick<Client, 'ip'>,
    ): Promise<string> {
      await otp.useExclusionCode(user, input.code, client);
      return db.transaction(async (tx) => {
        await users.holdActive(tx, user.id);
        return users.excludeFor(tx, user.id, input.days);
      });
    },

    /**
     * Deletes the user's account (DESIGN.md "Accounts"), or throws: InvalidCode for a wrong code,
     * LastAdmin, AccountDeletionRefused. Nothing is half-done: every row changes in one transaction.
     */
    async deleteAccount(
      user: { id: number },
      input: DeleteAccountInput,
      client: Pick<Client, 'ip'>,
    ): Promise<void> {
      const current = await users.findById(user.id);
      if (current?.status !== 'active') throw new Unauthenticated();
      // An early look, before the code is used, so a refused request costs no code; the deletion's
      // transaction looks again under the account's lock, and decides.
      const early = await db.transaction((tx) => deps.payments.pendingForDeletion(tx, user.id));
      await refuseIfBlocked(db, current, input, early);
      await otp.useDeletionCode(user, input.code, client);

      const files = await db.transaction(async (tx) => {
        const account = await users.lockForDeletion(tx, user.id);
        if (account?.status !== 'active') throw new InvalidCode();
        const pending = await deps.payments.pendingForDeletion(tx, user.id);
        await refuseIfBlocked(tx, account, input, pending);

        let forfeited = 0;
        if (account.moneyBalance > 0) {
          const posted = await ledger.post(tx, {
            userId: account.id,
            type: 'balance_forfeit',
            currency: 'XAF',
            amount: -account.moneyBalance,
            description: catalogueFor(account.locale).accountTexts.forfeit(account.moneyBalance),
            reference: `account-delete:${account.id}:forfeit`,
          });
          if (!posted) throw new Error('the balance changed under the account lock');
          forfeited = account.moneyBalance;
        }
        const tokensRevoked = await tokens.revokeAllOf(tx, account.id);
        await otp.forgetCodes(tx, account.id);
        const pronostics = await deps.pronostics.forgetOwner(tx, account.id);
        const tickets = await deps.support.forgetOwner(tx, account.id);
        await deps.events.forgetUser(tx, account.id);
        await deps.devices.forgetAll(tx, account.id);
        await deps.idempotency.forgetUser(tx, account.id);
        const godchildren = await deps.affiliation.releaseReferralLinks(tx, account.id);
        await deleteExportSlot(tx, account.id);
        const avatarKey = avatarKeyOf(account.avatarPath);
        const keys = [...(avatarKey ? [avatarKey] : []), ...tickets.keys];
        await recordFileDeletions(tx, account.id, keys);
        // The phone leaves everything but the financial rows (kept ten years, then erased by the
        // housekeeping): the audit details and the back office's events, the account's number and
        // the numbers it paid with or withdrew to alike.
        const phones = new Set([
          ...(account.phone ? [account.phone] : []),
          ...(await deps.payments.phonesOf(tx, account.id)),
          ...(await deps.withdrawals.phonesOf(tx, account.id)),
        ]);
        const auditScrubbed = await audit.forgetPhones(tx, [...phones]);
        await deps.events.forgetPhones(tx, [...phones]);
        await users.tombstone(tx, account);
        // The actor is the account's owner: the audit log's `admin_id` names who acted.
        await audit.record(tx, {
          adminId: account.id,
          action: 'user.delete',
          targetType: 'user',
          targetId: account.id,
          details: deletionDetails(account, {
            auditScrubbed,
            tickets: tickets.tickets,
            files: keys.length,
            tokensRevoked,
            godchildren,
            pronostics,
            forfeited,
          }),
        });
        return keys;
      });
      // This process forgets the tokens at once; the others on the triggers' announcements.
      tokens.cache.forgetUser(user.id);
      await removeFiles(files);
    },

    /** Retries the removal of files a deletion could not remove (the housekeeping); how many went. */
    async retryFileDeletions(): Promise<number> {
      return removeFiles(await pendingFileDeletions(db, FILE_RETRY_BATCH));
    },

    /**
     * The user's data export as JSON text chunks, or RateLimited when their last export is less than
     * an hour old. The slot is taken before the first byte, so a stream cut short still counts.
     */
    async exportData(user: { id: number }): Promise<AsyncGenerator<string>> {
      const now = clock.now();
      const last = await claimExport(db, user.id, now, EXPORT_INTERVAL_SECONDS);
      if (last !== undefined) {
        const wait = new Date(last).getTime() + EXPORT_INTERVAL_SECONDS * 1000 - now.getTime();
        throw new RateLimited(Math.max(1, wait / 1000), messages.accountExportTooSoon);
      }
      const account = await users.findById(user.id);
      if (account?.status !== 'active') throw new Unauthenticated();
      const sections: ExportSection[] = [
        ['pronostics', (after) => deps.pronostics.exportPage(user.id, after, EXPORT_PAGE_SIZE)],
        ['operations', (after) => deps.wallet.exportPage(user.id, after, EXPORT_PAGE_SIZE)],
        ['payments', (after) => deps.payments.exportPage(user.id, after, EXPORT_PAGE_SIZE)],
        ['withdrawals', (after) => deps.withdrawals.exportPage(user.id, after, EXPORT_PAGE_SIZE)],
        ['tickets', (after) => deps.support.exportPage(user.id, after, EXPORT_PAGE_SIZE)],
        ['devices', (after) => deps.devices.exportPage(user.id, after, EXPORT_PAGE_SIZE)],
        ['slips', (after) => deps.slips.exportPage(user.id, after, EXPORT_PAGE_SIZE)],
      ];
      const userView = {
        ...fullUserView(account),
        role: account.role,
        status: account.status,
        created_at: isoTimestamp(account.createdAt),
      };
      const referrals = () => deps.affiliation.exportReferrals(user.id);

      return exportDocument(now, userView, sections, referrals);
    },
  };
}

/** What a deletion removed and kept, as its audit row says (DESIGN.md "Accounts"). */
function deletionDetails(
  account: UserRow,
  removed: {
    auditScrubbed: number;
    tickets: number;
    files: number;
    tokensRevoked: number;
    godchildren: number;
    pronostics: number;
    forfeited: number;
  },
) {
  return {
    by: 'owner',
    removed: {
      personal_fields: ['phone', 'name', 'username', 'avatar'],
      phone_from_audit_rows: removed.auditScrubbed,
      tickets: removed.tickets,
      files: removed.files,
      tokens_revoked: removed.tokensRevoked,
      godchildren_released: removed.godchildren,
    },
    kept: {
      ledger: 'wallet_operations rows, pointing at the tombstone',
      payments: 'kept, pointing at the tombstone; the paying phone until the 10-year retention',
      withdrawals:
        'kept, pointing at the tombstone; the receiving phone (and the payout’s) until the 10-year retention',
      pronostics_anonymised: removed.pronostics,
      credits_balance: account.creditsBalance,
      money_forfeited: removed.forfeited,
      affiliation_code: account.affiliationCode,
      country: account.country,
    },
  };
}

/** One part of the export: its name and how to read a page of it after an id. */
type ExportSection = [name: string, page: (after: number) => Promise<{ id: number }[]>];

/** The export's JSON text, chunk by chunk: the account, then each section page by page, then the referrals. */
async function* exportDocument(
  now: Date,
  userView: object,
  sections: readonly ExportSection[],
  referrals: () => Promise<unknown>,
): AsyncGenerator<string> {
  yield `{"exported_at":${JSON.stringify(now.toISOString())},"user":${JSON.stringify(userView)}`;
  for (const [name, page] of sections) {
    yield `,${JSON.stringify(name)}:[`;
    let after = 0;
    let first = true;
    for (;;) {
      const rows = await page(after);
      if (rows.length > 0) {
        yield (first ? '' : ',') + rows.map((row) => JSON.stringify(row)).join(',');
        first = false;
        after = rows[rows.length - 1]!.id;
      }
      if (rows.length < EXPORT_PAGE_SIZE) break;
    }
    yield ']';
  }
  yield `,"referrals":${JSON.stringify(await referrals())}}`;
}

export type AccountService = ReturnType<typeof createAccountService>;
