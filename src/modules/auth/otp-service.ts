// Sign-in by one-time code: the rules. A code is 6 CSPRNG digits, kept only as an HMAC bound to its
// phone, valid OTP_TTL_SECONDS, single use, voided by a newer delivered code, by OTP_MAX_ATTEMPTS
// wrong tries for the client network that made them, and by three times that from all networks for
// everyone. Only mobile numbers get codes. Sending is throttled per phone (cooldown, hourly caps per
// client network and in all), per client network, per country calling code and globally (the SMS
// budgets), counted from delivered codes in the database so every API process sees the same numbers
// and a failed send costs the person nothing. While the strangers' share of a budget is under
// pressure, a number that never verified a code must solve a challenge first, and each stranger
// network may use only a small share (decision 0104).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, Transaction } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { keyedHash, newOtpCode, sameDigest } from '../../lib/crypto.js';
import {
  ChallengeRequired,
  InvalidCode,
  RateLimited,
  UpstreamFailed,
  ValidationFailed,
} from '../../lib/errors.js';
import { currentLocale, type Locale } from '../../lib/locale.js';
import { messages, otpTexts } from '../../lib/messages.js';
import { clientNetwork, strangerNetwork } from '../../lib/network.js';
import { normalizePhone, phoneForCountry } from '../../lib/phone.js';
import { addSeconds } from '../../lib/time.js';
import { MessagingError, type Messenger } from '../../providers/messaging/index.js';
import type { UserService } from '../users/service.js';
import {
  type BudgetKey,
  type Channel,
  closeCode,
  closeOpenCodes,
  countNetworkSpendSince,
  countSentSince,
  countSpendSince,
  deleteCodesOfUser,
  deleteCodesSentBefore,
  deleteSignupProofsBefore,
  deleteSpend,
  deleteSpendBefore,
  insertCode,
  insertSpend,
  lastSentAt,
  lockOpenCode,
  lockSmsBudgets,
  networkAttempts,
  networkSpentAtByAge,
  type OtpCodeRow,
  type Purpose,
  recordWrongAttempt,
  type SenderKey,
  sentAtByAge,
  spendByCallingCodeSince,
  spentAtByAge,
} from './otp-repository.js';
import type { GenerateInput, SignedInUser, VerifyInput } from './schemas.js';
import { CHALLENGE_PRESSURE, createSignupChallenges, networkShare } from './signup-challenge.js';
import type { TokenService } from './tokens.js';

/**
 * DESIGN.md, Sign-in: codes delivered in a rolling hour per phone from one client network, per phone
 * from all networks, and per client network.
 */
export const CODES_PER_PHONE_PER_NETWORK_PER_HOUR = 5;
export const CODES_PER_PHONE_PER_HOUR = 10;
export const CODES_PER_IP_PER_HOUR = 20;
/** Wrong tries from all networks that void a code for good, in multiples of OTP_MAX_ATTEMPTS. */
export const TOTAL_ATTEMPTS_FACTOR = 3;
/** An SMS budget this much used is worth a warning in the log (once per budget and hour). */
export const BUDGET_WARNING_SHARE = 0.8;
const HOUR_MS = 3_600_000;
const CODE_FORMAT = /^\d{6}$/;
/** Codes are kept this long after delivery: long past expiry, and well past the hourly counts. */
export const CODE_RETENTION_MS = 24 * HOUR_MS;

export interface OtpServiceDeps {
  db: Database;
  config: Config;
  clock: Clock;
  messenger: Messenger;
  users: UserService;
  tokens: TokenService;
}

/**
 * The client as the limits see it: its address (already resolved through TRUST_PROXY) and a logger;
 * and the language its Accept-Language resolved to, if any, which a code request and a sign-in
 * record on the account (DESIGN, "Languages").
 */
export interface Client {
  ip: string;
  log: FastifyBaseLogger;
  askedLocale?: Locale | undefined;
}

export function codeHash(config: Pick<Config, 'appSecret'>, phone: string, code: string): string {
  // Bound to the phone: a code's hash is useless for any other number.
  return keyedHash(config.appSecret, 'otp', `${phone}:${code}`);
}

/** Runs tasks one after the other per key, in this process. */
class KeyedMutex {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}

export function createOtpService(deps: OtpServiceDeps) {
  const { db, config, clock, messenger, users, tokens } = deps;
  // Two simultaneous requests for one phone would both pass the cooldown and both pay for an SMS:
  // sends run one at a time per phone, and the second then meets the cooldown like a later request.
  const phones = new KeyedMutex();
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

  // When each budget last warned, so the 80 % line is written once per budget and hour, not per
  // request (in each process; a few processes write a few lines).
  const budgetWarnedAt = new Map<string, number>();
  const challenges = createSignupChallenges({ db, config, clock });

  /** Each budget of this calling code as [name, key, hourly limit]. */
  const budgetsOf = (callingCode: string): [name: string, key: BudgetKey, max: number][] => [
    [`+${callingCode}`, { callingCode }, config.otpCountryHourlyBudget],
    ['global', { everyone: true }, config.otpGlobalHourlyBudget],
  ];
  const strangerCapOf = (max: number) => Math.floor((max * (100 - config.otpReturningSharePercent)) / 100);

  /**
   * Throws RateLimited when the key already had `max` codes (plus `inFlight` sends) in the last hour;
   * returns how many it had.
   */
  async function checkHourlyCap(
    key: SenderKey,
    max: number,
    inFlight: number,
    now: Date,
    message: string = messages.otpTooManyCodes,
  ): Promise<number> {
    const since = new Date(now.getTime() - HOUR_MS);
    const delivered = await countSentSince(db, key, since);
    const excess = delivered + inFlight - max;
    if (excess < 0) return delivered;
    // A slot frees when the (excess)-th oldest code of the window leaves it; sends still in flight
    // will be stamped about now, so if the slot depends on them it frees in a full hour.
    const freedBy = excess < delivered ? await sentAtByAge(db, key, since, excess) : undefined;
    const freesAt = freedBy ? new Date(freedBy).getTime() + HOUR_MS : now.getTime() + HOUR_MS;
    throw new RateLimited((freesAt - now.getTime()) / 1000, message);
  }

  async function checkPhoneLimits(
    phone: string,
    purpose: Purpose,
    network: string,
    now: Date,
  ): Promise<void> {
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
   * The SMS-fraud budgets, per country calling code and in all: reserves this send in both (one
   * row, counted for an hour) under one lock shared by every process, so sends in flight cannot
   * overrun them; RateLimited when either is used up for this number. OTP_RETURNING_SHARE_PERCENT
   * of each is kept for numbers that verified a code before: a number that never did may use only
   * the rest, so strangers pumping SMS to new numbers cannot lock the app's users out.
   */
  async function reserveBudgets(
    callingCode: string,
    stranger: { network: string; share: number | undefined } | undefined,
    now: Date,
    log: FastifyBaseLogger,
  ): Promise<number> {
    const since = new Date(now.getTime() - HOUR_MS);
    return db.transaction(async (tx) => {
      await lockSmsBudgets(tx);
      // Checked again under the lock, so one network's sends in flight cannot pass its share.
      if (stranger?.share !== undefined) await checkNetworkShare(tx, stranger.network, stranger.share, now);
      for (const [name, key, max] of budgetsOf(callingCode)) {
        const used = await countSpendSince(tx, key, since);
        const cap = stranger === undefined ? max : strangerCapOf(max);
        if (used >= cap) {
          // A slot frees when the (used - cap)-th oldest reservation of the hour leaves the window.
          const freedBy = await spentAtByAge(tx, key, since, used - cap);
          const freesAt = freedBy ? new Date(freedBy).getTime() + HOUR_MS : now.getTime() + HOUR_MS;
          throw new RateLimited(Math.max(1, (freesAt - now.getTime()) / 1000), messages.otpBudgetExhausted);
        }
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
      return insertSpend(tx, {
        callingCode,
        returning: stranger === undefined,
        network: stranger?.network ?? null,
        spentAt: now,
      });
    });
  }

  /**
   * How far the strangers' share of this number's budgets is used in the last hour (1: used up; the
   * most used of the two), and the smaller of the two shares.
   */
  async function strangerPressure(
    callingCode: string,
    now: Date,
  ): Promise<{ pressure: number; strangerCap: number }> {
    const since = new Date(now.getTime() - HOUR_MS);
    let pressure = 0;
    let strangerCap = Number.POSITIVE_INFINITY;
    for (const [, key, max] of budgetsOf(callingCode)) {
      const cap = strangerCapOf(max);
      const used = await countSpendSince(db, key, since);
      pressure = Math.max(pressure, cap > 0 ? used / cap : Number.POSITIVE_INFINITY);
      strangerCap = Math.min(strangerCap, cap);
    }
    return { pressure, strangerCap };
  }

  /** RateLimited when the stranger network already had `share` SMS in the last hour. */
  async function checkNetworkShare(tx: Database | Transaction, network: string, share: number, now: Date) {
    const since = new Date(now.getTime() - HOUR_MS);
    const spent = await countNetworkSpendSince(tx, network, since);
    if (spent < share) return;
    const freedBy = await networkSpentAtByAge(tx, network, since, spent - share);
    const freesAt = freedBy ? new Date(freedBy).getTime() + HOUR_MS : now.getTime() + HOUR_MS;
    throw new RateLimited(Math.max(1, (freesAt - now.getTime()) / 1000), messages.otpNetworkBusy);
  }

  /**
   * A stranger's sign-up (decision 0104): under pressure, its network must be within its share
   * (429) and it needs a proof (428 with a challenge when it has none). Returns the share to hold
   * it to when reserving, undefined without pressure.
   */
  async function admitStranger(
    phone: string,
    callingCode: string,
    network: string,
    proof: string | undefined,
    now: Date,
  ): Promise<number | undefined> {
    const { pressure, strangerCap } = await strangerPressure(callingCode, now);
    // No share at all for strangers: the budget's own check refuses them.
    if (strangerCap <= 0) return undefined;
    const share = pressure >= CHALLENGE_PRESSURE ? networkShare(strangerCap) : undefined;
    // The share first: a network past it is not made to work for a 429.
    if (share !== undefined) await checkNetworkShare(db, network, share, now);
    if (proof !== undefined) await challenges.redeem(proof, phone);
    else if (share !== undefined)
      throw new ChallengeRequired({ ...(await challenges.issue(phone, pressure)) });
    return share;
  }

  /** Runs under the phone's lock. */
  async function deliver(
    input: {
      phone: string;
      callingCode: string;
      country: string;
      method: Channel;
      purpose: Purpose;
      proof?: string | undefined;
    },
    client: Client,
  ) {
    const { phone, callingCode, country, method, purpose, proof } = input;
    const network = clientNetwork(client.ip);
    // After validation, on the normalized phone: "+237 6…" and "+2376…" share one budget, and a
    // request that cannot be sent never spends anyone's.
    const limited = config.rateLimit;
    let budgetSpend: number | undefined;
    if (limited) {
      await checkPhoneLimits(phone, purpose, network, clock.now());
      await networks.run(network, async () => {
        await checkHourlyCap({ ip: network }, CODES_PER_IP_PER_HOUR, reserved.get(network) ?? 0, clock.now());
        reserved.set(network, (reserved.get(network) ?? 0) + 1);
      });
    }
    let stored = false;
    try {
      if (limited) {
        const known = await users.findByPhone(phone);
        // Numbers that verified a code before are never challenged nor held to a network's share.
        if (known?.phoneVerifiedAt != null) {
          if (proof !== undefined) await challenges.redeem(proof, phone);
          budgetSpend = await reserveBudgets(callingCode, undefined, clock.now(), client.log);
        } else {
          const network = strangerNetwork(client.ip);
          // A deletion's code goes to a signed-in account's own phone: never challenged.
          const share =
            purpose === 'sign_in'
              ? await admitStranger(phone, callingCode, network, proof, clock.now())
              : undefined;
          budgetSpend = await reserveBudgets(callingCode, { network, share }, clock.now(), client.log);
        }
      } else if (proof !== undefined) {
        // RATE_LIMIT=off asks for no proof, but one that is given is still checked.
        await challenges.redeem(proof, phone);
      }
      // The account exists from the first request, even if this send fails (the person retries).
      const { user } = await users.findOrCreate(phone, country, client.askedLocale);
      // A blocked account could not use a token anyway: pay for no SMS, and answer as for anyone else.
      if (user.status !== 'active') {
        client.log.info({ user_id: user.id }, 'sign-in code not sent to a blocked account');
        return;
      }
      const code = newOtpCode();
      try {
        await messenger.send({
          to: phone,
          channel: method,
          code,
          // The requesting call's language (the request's scope), never the account's stored one.
          text: otpTexts.code(code, config.otpTtlSeconds),
          locale: currentLocale(),
          ttlSeconds: config.otpTtlSeconds,
        });
      } catch (error) {
        if (!(error instanceof MessagingError)) throw error;
        // Nothing is stored: an older code stays valid and no cooldown starts.
        const { provider, reason, providerCode, status, retryable } = error;
        client.log.warn(
          { provider, reason, providerCode, status, retryable, err: error.message },
          'sign-in code could not be sent',
        );
        throw new UpstreamFailed(messages.otpSendFailed, { provider, reason, providerCode, status });
      }
      const store = async () => {
        const sentAt = clock.now();
        await db.transaction(async (tx) => {
          await closeOpenCodes(tx, phone, purpose, sentAt);
          await insertCode(tx, {
            userId: user.id,
            phone,
            callingCode,
            channel: method,
            purpose,
            codeHash: codeHash(config, phone, code),
            ip: network,
            sentAt,
            expiresAt: addSeconds(sentAt, config.otpTtlSeconds),
          });
        });
        stored = true;
        if (limited) release(network);
      };
      await (limited ? networks.run(network, store) : store());
    } finally {
      // A failed send gives its reservations back (a count taken meanwhile was only too cautious).
      if (limited && !stored) {
        release(network);
        if (budgetSpend !== undefined) await deleteSpend(db, budgetSpend);
      }
    }
  }

  /**
   * Checks `code` against the phone's open code for `purpose` and, when it matches, closes it and
   * runs `onMatch` in the same transaction; undefined for every kind of failure. Decided inside the
   * transaction, thrown by the caller after it: a wrong try must be committed, not rolled back.
   */
  async function consumeCode<T>(
    phone: string,
    code: string,
    purpose: Purpose,
    client: Pick<Client, 'ip'>,
    onMatch: (tx: Transaction, row: OtpCodeRow) => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const now = clock.now();
    const network = clientNetwork(client.ip);
    return db.transaction(async (tx) => {
      const row = await lockOpenCode(tx, phone, purpose);
      if (!row || new Date(row.expiresAt).getTime() <= now.getTime()) return undefined;
      // Void for this network: not even checked, and not counted again, so one network's tries
      // never reach the ceiling over all networks on their own.
      if ((await networkAttempts(tx, row.id, network)) >= config.otpMaxAttempts) return undefined;
      // Constant time: the comparison must not tell how many leading characters matched.
      if (!sameDigest(codeHash(config, phone, code), row.codeHash)) {
        const ceiling = config.otpMaxAttempts * TOTAL_ATTEMPTS_FACTOR;
        await recordWrongAttempt(tx, row.id, network, ceiling, now);
        return undefined;
      }
      await closeCode(tx, row.id, now);
      return onMatch(tx, row);
    });
  }

  return {
    /**
     * The SMS budgets' use in the last hour (the metrics): each country calling code's and the
     * global one, with their hourly limits.
     */
    async smsBudgetUse(): Promise<{ budget: string; used: number; limit: number }[]> {
      const rows = await spendByCallingCodeSince(db, new Date(clock.now().getTime() - HOUR_MS));
      const global = rows.reduce((sum, row) => sum + row.used, 0);
      return [
        ...rows.map((row) => ({
          budget: `+${row.callingCode}`,
          used: row.used,
          limit: config.otpCountryHourlyBudget,
        })),
        { budget: 'global', used: global, limit: config.otpGlobalHourlyBudget },
      ];
    },

    /** Deletes codes past retention (the hourly limits need the last hour) and old budget rows; how many codes. */
    async purgeExpired(): Promise<number> {
      await deleteSpendBefore(db, new Date(clock.now().getTime() - 2 * HOUR_MS));
      await deleteSignupProofsBefore(db, clock.now());
      return deleteCodesSentBefore(db, new Date(clock.now().getTime() - CODE_RETENTION_MS));
    },

    /** Sends a new code; returns the normalized phone. The answer is the same for new and known phones. */
    async generate(input: GenerateInput, client: Client): Promise<{ phone: string }> {
      const country = input.country.toUpperCase();
      const checked = phoneForCountry(input.phone, country);
      if ('invalid' in checked) {
        if (checked.invalid === 'country') throw ValidationFailed.field('country', messages.countryInvalid);
        throw ValidationFailed.field(
          'phone',
          checked.invalid === 'not_mobile' ? messages.phoneNotMobile : messages.phoneNotForCountry,
        );
      }
      const { phone, callingCode } = checked;
      await phones.run(phone, () =>
        deliver(
          { phone, callingCode, country, method: input.method, purpose: 'sign_in', proof: input.proof },
          client,
        ),
      );
      return { phone };
    },

    /**
     * Sends the signed-in user a code confirming the deletion of their account (issue 30): to the
     * account's own phone, with the sign-in code's limits and budgets (its cooldown counts deletion
     * codes only).
     */
    async sendDeletionCode(user: { id: number }, method: Channel, client: Client): Promise<void> {
      const account = await users.findById(user.id);
      if (!account?.phone || account.status !== 'active') throw new InvalidCode();
      const checked = phoneForCountry(account.phone, account.country);
      // The stored phone was accepted by this very check when its first code was sent.
      if ('invalid' in checked) throw ValidationFailed.field('phone', messages.phoneInvalid);
      const { phone, callingCode } = checked;
      await phones.run(phone, () =>
        deliver({ phone, callingCode, country: account.country, method, purpose: 'account_delete' }, client),
      );
    },

    /**
     * Uses the user's open deletion code, or throws InvalidCode; a wrong try is counted exactly as
     * a sign-in's (per client network, and for everyone), in a transaction of its own so that it is
     * committed whatever the caller does next.
     */
    async useDeletionCode(user: { id: number }, code: string, client: Pick<Client, 'ip'>): Promise<void> {
      if (!CODE_FORMAT.test(code)) throw ValidationFailed.field('code', messages.otpCodeFormat);
      const account = await users.findById(user.id);
      if (!account?.phone) throw new InvalidCode();
      const used = await consumeCode(account.phone, code, 'account_delete', client, async (_tx, row) =>
        row.userId === user.id ? true : undefined,
      );
      if (!used) throw new InvalidCode();
    },

    /** Forgets the account's codes (its deletion's transaction): the phone is personal data. */
    async forgetCodes(tx: Transaction, userId: number): Promise<void> {
      await deleteCodesOfUser(tx, userId);
    },

    /**
     * Exchanges a delivered code for a bearer token. Every kind of failure, a blocked account's
     * included, is the same InvalidCode.
     */
    async verify(
      input: VerifyInput,
      client: Pick<Client, 'ip' | 'askedLocale'>,
    ): Promise<{ user: SignedInUser; token: string }> {
      const phone = normalizePhone(input.phone);
      // A code of another form is a malformed request (422), not a wrong try: it costs no attempt.
      const codeWellFormed = CODE_FORMAT.test(input.code);
      if (!phone || !codeWellFormed) {
        throw new ValidationFailed({
          ...(phone ? {} : { phone: [messages.phoneInvalid] }),
          ...(codeWellFormed ? {} : { code: [messages.otpCodeFormat] }),
        });
      }
      // Looked up first: the user row is the users module's, read outside this module's transaction.
      const account = await users.findByPhone(phone);
      const outcome = await consumeCode(phone, input.code, 'sign_in', client, async (tx, row) => {
        const user = account?.id === row.userId ? account : undefined;
        if (user && user.phoneVerifiedAt === null) await users.markPhoneVerified(tx, user.id);
        // A blocked account gets a wrong code's answer and no token: verify never tells which
        // accounts exist or are blocked, and a token it could not use is never written.
        if (user?.status !== 'active') return undefined;
        await users.rememberLocale(tx, user.id, client.askedLocale);
        const token = await tokens.issue(tx, user.id);
        return { user, token };
      });
      if (!outcome) throw new InvalidCode();
      const { user, token } = outcome;
      return {
        user: {
          id: user.id,
          phone,
          country: user.country,
          affiliation_code: user.affiliationCode,
        },
        token,
      };
    },
  };
}

export type OtpService = ReturnType<typeof createOtpService>;
