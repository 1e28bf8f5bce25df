// The ledger, as every service that moves a balance is handed it: money implements it
// (src/money/ledger/ledger.ts, `createLedger`) and the container builds one; users, pronostics and
// the account's deletion name it from here, below both, so naming the ledger makes no module depend
// on money (docs/architecture.md, "Types shared across layers").
import type { Executor } from '../db/client.js';
import type { Currency, OperationType } from '../lib/allowed-values.js';

export interface OperationInput {
  userId: number;
  type: OperationType;
  currency: Currency;
  /** Signed: positive credits the user, negative debits. */
  amount: number;
  description: string;
  reference?: string | null;
}

export interface PostedOperation {
  id: number;
  balanceAfter: number;
  /** The row's created_at, as the database wrote it. */
  createdAt: string;
}

/** The ledger's three steps; each runs on the executor it is given (the caller's transaction). */
export interface Ledger {
  /** Applies the operation, or returns null (and changes nothing) when the balance would go negative. */
  post(db: Executor, operation: OperationInput): Promise<PostedOperation | null>;
  /** Debits credits, or throws InsufficientCredits so the caller's transaction rolls back. */
  spendCredits(
    db: Executor,
    spending: {
      userId: number;
      credits: number;
      type: OperationType;
      description: string;
      reference: string;
    },
  ): Promise<PostedOperation>;
  /** The balances the ledger says a user has; they must equal the user's row. */
  sums(db: Executor, userId: number): Promise<{ credits: number; money: number }>;
}
