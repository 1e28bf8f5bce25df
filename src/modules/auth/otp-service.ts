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
import { newOtpCode } from '../../lib/crypto.js';
import { InvalidCode, UpstreamFailed, ValidationFailed } from '../../lib/errors.js';
import { currentLocale, type Locale } from '../../lib/locale.js';
import { messages, otpTexts } from '../../lib/messages.js';
import { clientNetwork } from '../../lib/network.js';
import { normalizePhone, phoneForCountry } from '../../lib/phone.js';
import { addSeconds } from '../../lib/time.js';
import { MessagingError, type Messenger } from '../../providers/messaging/index.js';
import type { UserService } from '../users/service.js';
import { CODE_FORMAT, codeHash, createCodeCheck } from './code-check.js';
import { KeyedMutex } from './keyed-mutex.js';
import {
  type Channel,
  closeOpenCodes,
  deleteCodesOfUser,
  deleteCodesSentBefore,
  deleteSignupProofsBefore,
  insertCode,
  type Purpose,
} from './otp-repository.js';
import type { GenerateInput, SignedInUser, VerifyInput } from './schemas.js';
import { createSignupChallenges } from './signup-challenge.js';
import { createSmsLimits } from './sms-limits.js';
import type { TokenService } from './tokens.js';

export { codeHash, TOTAL_ATTEMPTS_FACTOR } from './code-check.js';
export {
  BUDGET_WARNING_SHARE,
  CODES_PER_IP_PER_HOUR,
  CODES_PER_PHONE_PER_HOUR,
  CODES_PER_PHONE_PER_NETWORK_PER_HOUR,
} from './sms-limits.js';

/** Codes are kept this long after delivery: long past expiry, and well past the hourly counts. */
export const CODE_RETENTION_MS = 24 * 3_600_000;

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

export function createOtpService(deps: OtpServiceDeps) {
  const { db, config, clock, messenger, users, tokens } = deps;
  // Two simultaneous requests for one phone would both pass the cooldown and both pay for an SMS:
  // sends run one at a time per phone, and the second then meets the cooldown like a later request.
  const phones = new KeyedMutex();
  const challenges = createSignupChallenges({ db, config, clock });
  const limits = createSmsLimits({ db, config, clock, users, challenges });
  const consumeCode = createCodeCheck({ db, config, clock });

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
    // After validation, on the normalized phone: "+237 6…" and "+2376…" share one budget, and a
    // request that cannot be sent never spends anyone's.
    const reservation = await limits.reserve({ phone, callingCode, purpose, proof }, client);
    let kept = false;
    try {
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
      await reservation.keep(async () => {
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
            ip: clientNetwork(client.ip),
            sentAt,
            expiresAt: addSeconds(sentAt, config.otpTtlSeconds),
          });
        });
      });
      kept = true;
    } finally {
      // A failed send gives its reservations back.
      if (!kept) await reservation.giveBack();
    }
  }

  const accountCodes = createAccountCodes({ users, phones, deliver, consumeCode });

  return {
    /**
     * The SMS budgets' use in the last hour (the metrics): each country calling code's and the
     * global one, with their hourly limits.
     */
    smsBudgetUse: limits.budgetUse,

    /** Deletes codes past retention (the hourly limits need the last hour), old budget rows and asks; how many codes. */
    async purgeExpired(): Promise<number> {
      await limits.purge();
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
    sendDeletionCode(user: { id: number }, method: Channel, client: Client): Promise<void> {
      return accountCodes.send(user, method, client, 'account_delete');
    },

    /**
     * Uses the user's open deletion code, or throws InvalidCode; a wrong try is counted exactly as
     * a sign-in's (per client network, and for everyone), in a transaction of its own so that it is
     * committed whatever the caller does next.
     */
    useDeletionCode(user: { id: number }, code: string, client: Pick<Client, 'ip'>): Promise<void> {
      return accountCodes.use(user, code, client, 'account_delete');
    },

    /** A code confirming a self-exclusion (issue 54), sent and limited as a deletion's. */
    sendExclusionCode(user: { id: number }, method: Channel, client: Client): Promise<void> {
      return accountCodes.send(user, method, client, 'self_exclusion');
    },

    /** Uses the user's open self-exclusion code, as a deletion's, or throws InvalidCode. */
    useExclusionCode(user: { id: number }, code: string, client: Pick<Client, 'ip'>): Promise<void> {
      return accountCodes.use(user, code, client, 'self_exclusion');
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

/** What the codes confirming an action on one's own account need of the OTP service. */
interface AccountCodeDeps {
  users: Pick<UserService, 'findById'>;
  phones: KeyedMutex;
  deliver(
    input: { phone: string; callingCode: string; country: string; method: Channel; purpose: Purpose },
    client: Client,
  ): Promise<void>;
  consumeCode: ReturnType<typeof createCodeCheck>;
}

/**
 * The codes confirming an action on the signed-in user's own account (a deletion, a self-exclusion):
 * sent to its phone with the sign-in code's limits and budgets, each good for its purpose only.
 */
function createAccountCodes({ users, phones, deliver, consumeCode }: AccountCodeDeps) {
  return {
    async send(
      user: { id: number },
      method: Channel,
      client: Client,
      purpose: Exclude<Purpose, 'sign_in'>,
    ): Promise<void> {
      const account = await users.findById(user.id);
      if (!account?.phone || account.status !== 'active') throw new InvalidCode();
      const checked = phoneForCountry(account.phone, account.country);
      // The stored phone was accepted by this very check when its first code was sent.
      if ('invalid' in checked) throw ValidationFailed.field('phone', messages.phoneInvalid);
      const { phone, callingCode } = checked;
      await phones.run(phone, () =>
        deliver({ phone, callingCode, country: account.country, method, purpose }, client),
      );
    },

    /** Uses the user's open code of this purpose, or throws InvalidCode (wrong tries counted as a sign-in's). */
    async use(
      user: { id: number },
      code: string,
      client: Pick<Client, 'ip'>,
      purpose: Exclude<Purpose, 'sign_in'>,
    ): Promise<void> {
      if (!CODE_FORMAT.test(code)) throw ValidationFailed.field('code', messages.otpCodeFormat);
      const account = await users.findById(user.id);
      if (!account?.phone) throw new InvalidCode();
      const used = await consumeCode(account.phone, code, purpose, client, async (_tx, row) =>
        row.userId === user.id ? true : undefined,
      );
      if (!used) throw new InvalidCode();
    },
  };
}
