// Accounts: created on the first code request for a phone, with a unique referral code and the
// welcome credits (a ledger row), all in one transaction.
import { randomInt } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Database, Executor } from '../../db/client.js';
import { normalizePhone } from '../auth/phone.js';
import { postOperation } from '../wallet/ledger.js';
import {
  affiliationCodeTaken,
  findUserById,
  findUserByPhone,
  insertUserIfAbsent,
  type UserRow,
} from './repository.js';

const CODE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function newAffiliationCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export const welcomeBonusDescription = 'Crédits de bienvenue';

/** The account of a normalized phone, created if absent. Safe when two requests race for one phone. */
export async function findOrCreateUser(
  db: Database,
  config: Config,
  phone: string,
  country: string,
): Promise<{ user: UserRow; created: boolean }> {
  const existing = await findUserByPhone(db, phone);
  if (existing) return { user: existing, created: false };
  return db.transaction(async (tx) => {
    let code = newAffiliationCode();
    // 36^8 codes: a collision is rare, but the unique index would turn one into a failed sign-in.
    for (let attempt = 0; attempt < 5 && (await affiliationCodeTaken(tx, code)); attempt++) {
      code = newAffiliationCode();
    }
    const inserted = await insertUserIfAbsent(tx, { phone, country, affiliationCode: code });
    if (!inserted) {
      const raced = await findUserByPhone(tx, phone);
      if (!raced) throw new Error('user vanished after a conflicting insert');
      return { user: raced, created: false };
    }
    if (config.welcomeCredits > 0) {
      const posted = await postOperation(tx, {
        userId: inserted.id,
        type: 'welcome_bonus',
        currency: 'credits',
        amount: config.welcomeCredits,
        description: welcomeBonusDescription,
      });
      return { user: { ...inserted, creditsBalance: posted?.balanceAfter ?? 0 }, created: true };
    }
    return { user: inserted, created: true };
  });
}

/** The account with this id, or undefined (for other modules, which do not read this one's tables). */
export function userById(db: Executor, id: number): Promise<UserRow | undefined> {
  return findUserById(db, id);
}

/** The account an operator names by phone (CLI); a plain Error, which the CLI prints, when there is none. */
export async function accountOfPhone(db: Executor, rawPhone: string): Promise<UserRow> {
  const phone = normalizePhone(rawPhone);
  if (!phone) throw new Error(`"${rawPhone}" is not a valid international phone number (e.g. +237690000000)`);
  const user = await findUserByPhone(db, phone);
  if (!user) throw new Error(`no account has the phone ${phone}`);
  return user;
}
