// The wallet's operations outside a request's own transaction: credits granted by an operator
// (support gesture, promotion) as `admin_adjustment` ledger rows; the owner's operations history;
// and the whole-database ledger check. Everyone else changes balances inside their own transactions
// through ledger.ts.
import type { Static } from 'typebox';
import type { Database } from '../../db/client.js';
import { dayRange } from '../../lib/day-range.js';
import { offsetOf, type PageMeta, pageMeta, pageRequest } from '../../lib/pagination.js';
import { isoTimestamp } from '../../lib/time.js';
import type { Ledger } from './ledger.js';
import {
  type BalanceCheck,
  balanceMismatches,
  countUsers,
  listOperations,
  listOperationsCounted,
  maxUserId,
  type OperationFilter,
  type OperationRow,
  operationsForExport,
  purchaseReferenceProblems,
} from './repository.js';
import type { OperationSchema, OperationsQuery as OperationsQuerySchema } from './schemas.js';

export const GRANT_MAX = 1_000_000;
/** How many operations the latest-transactions list and the dashboard show. */
export const LATEST_OPERATIONS = 5;
/** Users checked per grouped query by `ledger:verify`. */
export const LEDGER_VERIFY_BATCH = 5_000;

export interface WalletServiceDeps {
  db: Database;
  /** Moves balances with their ledger rows (money's ledger). */
  ledger: Ledger;
}

/** A ledger row as its owner (and the back office) reads it. */
export type OperationView = Static<typeof OperationSchema>;

type OperationsQuery = Static<typeof OperationsQuerySchema>;

export interface LedgerReport {
  users: number;
  mismatches: BalanceCheck[];
  duplicateReferences: { reference: string; rows: number }[];
  unreferencedPurchases: number;
}

function operationView(row: OperationRow): OperationView {
  return {
    id: row.id,
    type: row.type,
    currency: row.currency,
    amount: row.amount,
    balance_after: row.balanceAfter,
    description: row.description,
    reference: row.reference,
    created_at: isoTimestamp(row.createdAt),
  };
}

/** The filters as the repository takes them; 422 naming the field on a bad date or from > to. */
function operationFilter(userId: number, query: OperationsQuery): OperationFilter {
  const { from, before } = dayRange(query);
  return { userId, type: query.type, currency: query.currency, from, before };
}

export function createWalletService({ db, ledger }: WalletServiceDeps) {
  return {
    /** A page of the user's ledger rows, after `afterId`, for their data export. */
    async exportPage(userId: number, afterId: number, limit: number): Promise<OperationView[]> {
      return (await operationsForExport(db, userId, afterId, limit)).map(operationView);
    },

    /** Adds (or, negative, removes) credits; a plain Error (the CLI prints it) for bad input. */
    async grantCredits(
      account: { id: number; creditsBalance: number },
      amount: number,
      reason: string,
    ): Promise<{ balance: number }> {
      if (!Number.isSafeInteger(amount) || amount === 0 || Math.abs(amount) > GRANT_MAX) {
        throw new Error(`the amount must be a non-zero whole number of credits up to ${GRANT_MAX}`);
      }
      const description = reason.trim();
      if (description.length < 3 || description.length > 200) {
        throw new Error(
          'the reason must be 3 to 200 characters (it is shown to the user in the operations history)',
        );
      }
      const posted = await db.transaction((tx) =>
        ledger.post(tx, {
          userId: account.id,
          type: 'admin_adjustment',
          currency: 'credits',
          amount,
          description,
        }),
      );
      if (!posted) {
        throw new Error(`the account has ${account.creditsBalance} credits: it cannot go below zero`);
      }
      return { balance: posted.balanceAfter };
    },

    /** The owner's operations, newest first, filtered and paginated. */
    async listOwn(
      user: { id: number },
      query: OperationsQuery,
    ): Promise<{ operations: OperationView[]; meta: PageMeta }> {
      const filter = operationFilter(user.id, query);
      const page = pageRequest(query);
      const range = { limit: page.perPage, offset: offsetOf(page) };
      const { rows, total } = await listOperationsCounted(db, filter, range);
      return { operations: rows.map(operationView), meta: pageMeta(page, total) };
    },

    /** The owner's newest operations (one query). */
    async latestOwn(user: { id: number }): Promise<OperationView[]> {
      const rows = await listOperations(db, { userId: user.id }, { limit: LATEST_OPERATIONS, offset: 0 });
      return rows.map(operationView);
    },

    /**
     * Over the whole database: every user's balances against their ledger sums (one grouped query
     * per batch of user ids), and the purchases' provider references (each credited once).
     */
    async verifyLedger(
      options: { batchSize?: number; progress?: (doneUpToId: number, maxId: number) => void } = {},
    ): Promise<LedgerReport> {
      const { batchSize = LEDGER_VERIFY_BATCH, progress } = options;
      const [userCount, maxId] = await Promise.all([countUsers(db), maxUserId(db)]);
      const mismatches: BalanceCheck[] = [];
      for (let after = 0; after < maxId; after += batchSize) {
        const upTo = Math.min(after + batchSize, maxId);
        mismatches.push(...(await balanceMismatches(db, after, upTo)));
        progress?.(upTo, maxId);
      }
      const references = await purchaseReferenceProblems(db);
      return {
        users: userCount,
        mismatches,
        duplicateReferences: references.duplicates,
        unreferencedPurchases: references.unreferenced,
      };
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
