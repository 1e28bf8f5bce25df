// What one code send must pass before it is paid for: per phone (the resend cooldown, hourly caps
// per client network and in all), per client network, and the SMS-fraud budgets per country calling
// code and in all, counted from the database so every API process sees the same numbers; a failed
// send gives its reservations back. While the strangers' share of a budget is under pressure, a
// number that never verified a code must solve a challenge and each stranger network may use only a
// small share (decision 0104); a network that asked for many distinct numbers in the hour is a
// stranger for every number, known or not, so its answers say nothing about who has an account
// (decision 0122).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, Transaction } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { keyedHash } from '../../lib/crypto.js';
import { ChallengeRequired, RateLimited } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { clientNetwork, strangerNetwork } from '../../lib/network.js';
import type { UserService } from '../users/service.js';
import { KeyedMutex } from './keyed-mutex.js';
import {
  type BudgetKey,
  countNetworkSpendSince,
  countSentSince,
  countSpendSince,
  deleteAsksBefore,
  deleteSpend,
  deleteSpendBefore,
  insertSpend,
  lastSentAt,
  lockSmsBudgets,
  networkSpentAtByAge,
  type Purpose,
  recordAsk,
  type SenderKey,
  sentAtByAge,
  spendByCallingCodeSince,
  spentAtByAge,
} from './otp-repository.js';
import { CHALLENGE_PRESSURE, networkShare, type SignupChallenges } from './signup-challenge.js';

/**
 * DESIGN.md, Sign-in: codes delivered in a rolling hour per phone from one client network, per phone
 * from all networks, and per client network.
 */
export const CODES_PER_PHONE_PER_NETWORK_PER_HOUR = 5;
export const CODES_PER_PHONE_PER_HOUR = 10;
export const CODES_PER_IP_PER_HOUR = 20;
/** An SMS budget this much used is worth a warning in the log (once per budget and hour). */
export const BUDGET_WARNING_SHARE = 0.8;
/**
 * Under pressure, a stranger network that asked for more distinct numbers than this in the hour is
 * a prober: every number it asks for is a stranger's (challenge, share), known or not. What it can
 * learn is bounded by this many numbers per network and hour.
 */
export const PROBE_DISTINCT_NUMBERS = 3;
const HOUR_MS = 3_600_000;

export interface SendRequest {
  phone: string;
  callingCode: string;
  purpose: Purpose;
  proof?: string | undefined;
}

/** What a send reserved: kept once its code is stored, given back otherwise. */
export interface Reservation {
  /** Stores the delivered code (under the network's lock, so no count sees it twice) and keeps it all. */
  keep(store: () => Promise<void>): Promise<void>;
  /** Gives everything back: the send failed or was not made (a count taken meanwhile was only too cautious). */
  giveBack(): Promise<void>;
}

const unlimited: Reservation = { keep: (store) => store(), giveBack: async () => {} };

/** A RateLimited for a slot freed an hour after `freedBy` (now, when unknown). */
function freedIn(freedBy: string | undefined, now: Date, message: string) {
  const freesAt = freedBy ? new Date(freedBy).getTime() + HOUR_MS : now.getTime() + HOUR_MS;
  return new RateLimited(Math.max(1, (freesAt - now.getTime()) / 1000), message);
}

const hourBefore = (now: Date) => new Date(now.getTime() - HOUR_MS);

/**
 * The SMS-fraud budgets, per country calling code and in all, with the strangers' share of each:
 * what a send reserves in them, how far the strangers' share is used, their use for the metrics.
 */
function createSmsBudgets(deps: { db: Database; config: Config; clock: Clock }) {
  const { db, config, clock } = deps;
  // When each budget last warned, so the 80 % line is written once per budget and hour, not per
  // request (in each process; a few processes write a few lines).
  const budgetWarnedAt = new Map<string, number>();

  /** Each budget of this calling code as [name, key, hourly limit]. */
  const budgetsOf = (callingCode: string): [name: string, key: BudgetKey, max: number][] => [
    [`+${callingCode}`, { callingCode }, config.otpCountryHourlyBudget],
    ['global', { everyone: true }, config.otpGlobalHourlyBudget],
  ];
  const strangerCapOf = (max: number) => Math.floor((max * (100 - config.otpReturningSharePercent)) / 100);

  /** RateLimited when the stranger network already had `share` SMS in the last hour. */
  async function checkNetworkShare(tx: Database | Transaction, network: string, share: number, now: Date) {
    const since = hourBefore(now);
    const spent = await countNetworkSpendSince(tx, network, since);
    if (spent < share) return;
    throw freedIn(await networkSpentAtByAge(tx, network, since, spent - share), now, messages.otpNetworkBusy);
  }

  /**
   * The SMS-fraud budgets, per country calling code and in all: reserves this send in both (one
   * row, counted for an hour) under one lock shared by every process, so sends in flight cannot
   * overrun them; RateLimited when either is used up for this number. OTP_RETURNING_SHARE_PERCENT
   * of each is kept for numbers that verified a code before: a stranger may use only the rest.
   */
  async function reserve(
    callingCode: string,
    stranger: { network: string; share: number | undefined } | undefined,
    log: FastifyBaseLogger,
  ): Promise<number> {
    const now = clock.now();
    const since = hourBefore(now);
    return db.transaction(async (tx) => {
      await lockSmsBudgets(tx);
      // Checked again under the lock, so one network's sends in flight cannot pass its share.
      if (stranger?.share !== undefined) await checkNetworkShare(tx, stranger.network, stranger.share, now);
      for (const [name, key, max] of budgetsOf(callingCode)) {
        const used = await countSpendSince(tx, key, since);
        const cap = stranger === undefined ? max : strangerCapOf(max);
        // A slot frees when the (used - cap)-th oldest reservation of the hour leaves the window.
        if (used >= cap)
          throw freedIn(await spentAtByAge(tx, key, since, used - cap), now, messages.otpBudgetExhausted);
        // This send brings the budget to `used + 1`.
        if (used + 1 < max * BUDGET_WARNING_SHARE) continue;
        const warned = budgetWarnedAt.get(name);
        if (warned !== undefined && now.getTime() - warned < HOUR_MS) continue;
        budgetWarnedAt.set(name, now.getTime());
        log.warn(
          { budget: name, used: used + 1, limit: max },
          'SMS budget 80 % used in the last hour: check for SMS-pumping fraud or raise the budget',
        );
      }
      const values = { callingCode, returning: stranger === undefined, spentAt: now };
      return insertSpend(tx, { ...values, network: stranger?.network ?? null });
    });
  }

  /**
   * How far the strangers' share of this number's budgets is used in the last hour (1: used up; the
   * most used of the two), and the smaller of the two shares.
   */
  async function strangerPressure(callingCode: string, now: Date) {
    let pressure = 0;
    let strangerCap = Number.POSITIVE_INFINITY;
    for (const [, key, max] of budgetsOf(callingCode)) {
      const cap = strangerCapOf(max);
      const used = await countSpendSince(db, key, hourBefore(now));
      pressure = Math.max(pressure, cap > 0 ? used / cap : Number.POSITIVE_INFINITY);
      strangerCap = Math.min(strangerCap, cap);
    }
    return { pressure, strangerCap };
  }

  /** The budgets' use in the last hour: each calling code's and the global one. */
  async function use(): Promise<{ budget: string; used: number; limit: number }[]> {
    const rows = await spendByCallingCodeSince(db, hourBefore(clock.now()));
    const global = rows.reduce((sum, row) => sum + row.used, 0);
    return [
      ...rows.map((row) => ({
        budget: `+${row.callingCode}`,
        used: row.used,
        limit: config.otpCountryHourlyBudget,
      })),
      { budget: 'global', used: global, limit: config.otpGlobalHourlyBudget },
    ];
  }

  return { reserve, strangerPressure, checkNetworkShare, use };
}

export function createSmsLimits(deps: {
  db: Database;
  config: Config;
  clock: Clock;
  users: Pick<UserService, 'findByPhone'>;
  challenges: SignupChallenges;
}) {
  const { db, config, clock, users, challenges } = deps;
  // Per network, sends run side by side (many people share one carrier NAT), so the cap counts the
  // sends in flight too. Checking and reserving, and storing and releasing, each hold the lock, so
  // a count never sees one send both as a stored row and as a reservation.
  const networks = new KeyedMutex();
  const reserved = new Map<string, number>();
  const release = (network: string) => {
    const left = (reserved.get(network) ?? 1) - 1;
    if (left > 0) reserved.set(network, left);
    else reserved.delete(network);
  };
  const askTag = (phone: string) => keyedHash(config.appSecret, 'otp_ask', phone).slice(0, 32);
  const budgets = createSmsBudgets({ db, config, clock });

  /** Throws RateLimited when the key already had `max` codes (plus `inFlight` sends) in the last hour. */
  async function checkHourlyCap(key: SenderKey, max: number, inFlight: number, now: Date): Promise<void> {
    const since = hourBefore(now);
    const delivered = await countSentSince(db, key, since);
    const excess = delivered + inFlight - max;
    if (excess < 0) return;
    // A slot frees when the (excess)-th oldest code of the window leaves it; sends still in flight
    // will be stamped about now, so if the slot depends on them it frees in a full hour.
    const freedBy = excess < delivered ? await sentAtByAge(db, key, since, excess) : undefined;
    throw freedIn(freedBy, now, messages.otpTooManyCodes);
  }

  async function checkPhoneLimits(phone: string, purpose: Purpose, network: string, now: Date) {
    // Per purpose: a deletion's confirmation code may follow a sign-in code at once (the public
    // deletion page does exactly that); the hourly caps and budgets below count every code.
    const last = await lastSentAt(db, phone, purpose);
    if (last && config.otpResendCooldownSeconds > 0) {
      const waitMs = new Date(last).getTime() + config.otpResendCooldownSeconds * 1000 - now.getTime();
      if (waitMs > 0) throw new RateLimited(waitMs / 1000, messages.otpResendCooldown);
    }
    // Per network first, so a stranger's requests cannot spend the owner's codes; the ceiling over
    // all networks still bounds what many networks together can spend on one phone.
    await checkHourlyCap({ phone, ip: network }, CODES_PER_PHONE_PER_NETWORK_PER_HOUR, 0, now);
    await checkHourlyCap({ phone }, CODES_PER_PHONE_PER_HOUR, 0, now);
  }

  /**
   * Admits this send and reserves its budgets; returns the reservation's row. Numbers that verified
   * a code before are never challenged nor held to a network's share, unless their network is a
   * prober; a stranger under pressure must be within its network's share (429, checked first: a
   * network past it is not made to work for it) and bring a proof (428 with a challenge).
   */
  async function admit(request: SendRequest, log: FastifyBaseLogger, ip: string): Promise<number> {
    const { phone, callingCode, purpose, proof } = request;
    const returning = (await users.findByPhone(phone))?.phoneVerifiedAt != null;
    const network = strangerNetwork(ip);
    // A deletion's code goes to a signed-in account's own phone: never challenged.
    if (purpose !== 'sign_in') {
      return budgets.reserve(callingCode, returning ? undefined : { network, share: undefined }, log);
    }
    const now = clock.now();
    const { pressure, strangerCap } = await budgets.strangerPressure(callingCode, now);
    // No share at all for strangers (strangerCap 0): the budget's own check refuses them.
    const share = strangerCap > 0 && pressure >= CHALLENGE_PRESSURE ? networkShare(strangerCap) : undefined;
    const prober =
      share !== undefined &&
      (await recordAsk(db, network, askTag(phone), now, hourBefore(now))) > PROBE_DISTINCT_NUMBERS;
    if (returning && !prober) {
      if (proof !== undefined) await challenges.redeem(proof, phone);
      return budgets.reserve(callingCode, undefined, log);
    }
    if (share !== undefined) await budgets.checkNetworkShare(db, network, share, now);
    if (proof !== undefined) await challenges.redeem(proof, phone);
    else if (share !== undefined)
      throw new ChallengeRequired({ ...(await challenges.issue(phone, pressure)) });
    return budgets.reserve(callingCode, { network, share }, log);
  }

  return {
    /**
     * Checks every limit for this send and reserves it (RateLimited, ChallengeRequired, or a 422 on
     * a wrong proof). With RATE_LIMIT=off nothing is counted, but a proof that is given is checked.
     */
    async reserve(
      request: SendRequest,
      client: { ip: string; log: FastifyBaseLogger },
    ): Promise<Reservation> {
      if (!config.rateLimit) {
        if (request.proof !== undefined) await challenges.redeem(request.proof, request.phone);
        return unlimited;
      }
      const network = clientNetwork(client.ip);
      await checkPhoneLimits(request.phone, request.purpose, network, clock.now());
      await networks.run(network, async () => {
        await checkHourlyCap({ ip: network }, CODES_PER_IP_PER_HOUR, reserved.get(network) ?? 0, clock.now());
        reserved.set(network, (reserved.get(network) ?? 0) + 1);
      });
      let spend: number | undefined;
      let settled = false;
      const giveBack = async () => {
        if (settled) return;
        settled = true;
        release(network);
        if (spend !== undefined) await deleteSpend(db, spend);
      };
      try {
        spend = await admit(request, client.log, client.ip);
      } catch (error) {
        await giveBack();
        throw error;
      }
      return {
        giveBack,
        keep: (store) =>
          networks.run(network, async () => {
            await store();
            settled = true;
            release(network);
          }),
      };
    },

    /** The SMS budgets' use in the last hour (the metrics): each calling code's and the global one. */
    budgetUse: budgets.use,

    /** Deletes budget rows and asks the hourly counts no longer need. */
    async purge(): Promise<void> {
      await deleteSpendBefore(db, new Date(clock.now().getTime() - 2 * HOUR_MS));
      await deleteAsksBefore(db, hourBefore(clock.now()));
    },
  };
}

export type SmsLimits = ReturnType<typeof createSmsLimits>;
