// What a module that writes a text for an account with no request there to ask (a payout message,
// a ledger row, a push) needs of the users module: the account's language (DESIGN, "Languages").
// The users service implements it; the modules name it from here, below both.
import type { Executor } from '../db/client.js';
import type { Locale } from '../lib/allowed-values.js';

export interface AccountLocales {
  /** The account's language, read with `executor` (a transaction's, to see what it sees); French when gone. */
  localeOf(executor: Executor, userId: number): Promise<Locale>;
}
