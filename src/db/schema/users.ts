// Accounts, their one-time codes and their bearer tokens.
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
} from 'drizzle-orm/pg-core';
import {
  locales,
  otpChannels,
  otpPurposes,
  phoneHashKeys,
  spendingPeriods,
  userRoles,
  userStatuses,
} from '../../lib/allowed-values.js';
import { createdAt, timestamptz } from './columns.js';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** Null once the account is deleted: the number is free for a new account. */
    phone: text('phone').unique(),
    country: text('country').notNull(),
    name: text('name'),
    username: text('username').unique(),
    avatarPath: text('avatar_path'),
    affiliationCode: text('affiliation_code').notNull().unique(),
    godfatherId: integer('godfather_id').references((): AnyPgColumn => users.id),
    role: text('role', { enum: userRoles }).notNull().default('user'),
    status: text('status', { enum: userStatuses }).notNull().default('active'),
    creditsBalance: integer('credits_balance').notNull().default(0),
    moneyBalance: integer('money_balance').notNull().default(0),
    /** When a sign-in code sent to this phone was first verified: a returning number for the SMS budgets. */
    phoneVerifiedAt: timestamptz('phone_verified_at'),
    /**
     * On a tombstone only: a keyed hash of the phone it had (never the phone), so a new account on
     * that number gets no second WELCOME_CREDITS. Used for that purpose alone.
     */
    welcomedPhoneHash: text('welcomed_phone_hash'),
    /**
     * What keys `welcomed_phone_hash`: `tombstone_key` (HMAC(TOMBSTONE_KEY, HMAC(APP_SECRET, phone)));
     * `app_secret` for a hash written before TOMBSTONE_KEY, re-keyed once at the next start (decision 0125).
     */
    welcomedPhoneHashKey: text('welcomed_phone_hash_key', { enum: phoneHashKeys }),
    /**
     * The account's language, for what is sent with no request there to ask (push, narration,
     * payout messages, ledger rows): written from a request's Accept-Language only when it resolves
     * (code request, sign-in), or by the profile (DESIGN, "Languages").
     */
    locale: text('locale', { enum: locales }).notNull().default('fr'),
    /** Responsible play: the date of birth, set once by its owner, changed after only by an admin (audited). */
    birthDate: date('birth_date', { mode: 'string' }),
    /**
     * Responsible play: no checkout, new analysis or slip until then; only ever lengthened. A
     * tombstone keeps it, and a new account on the same number inherits it (its keyed phone hash).
     */
    selfExcludedUntil: timestamptz('self_excluded_until'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().default(sql`now()`),
  },
  (table) => [
    check('users_credits_balance_non_negative', sql`${table.creditsBalance} >= 0`),
    check('users_money_balance_non_negative', sql`${table.moneyBalance} >= 0`),
    check(
      'users_locale_check',
      sql`${table.locale} in (${sql.raw(locales.map((value) => `'${value}'`).join(', '))})`,
    ),
    index('users_godfather_idx').on(table.godfatherId),
    index('users_welcomed_phone_hash_idx')
      .on(table.welcomedPhoneHash)
      .where(sql`${table.welcomedPhoneHash} IS NOT NULL`),
    // The back office's user list: newest first (the ORDER BY's own order, NULLS FIRST), and its
    // search, a fragment of the phone, the username or the name (trigram indexes, `LIKE '%…%'`).
    index('users_created_idx').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('users_phone_trgm_idx').using('gin', sql`${table.phone} gin_trgm_ops`),
    index('users_username_trgm_idx').using('gin', sql`lower(${table.username}) gin_trgm_ops`),
    index('users_name_trgm_idx').using('gin', sql`lower(${table.name}) gin_trgm_ops`),
  ],
);

/**
 * Responsible play: the spending limits a user set on their packs, in XAF, one row per period. A
 * lower or new limit is `amount` at once; a higher one or a removal waits 72 h as `pending_amount`
 * (null: removed) until `pending_at`, and counts from then without any job (read as applied). A
 * tombstone keeps its rows, and a new account on the same number inherits them.
 */
export const spendingLimits = pgTable(
  'spending_limits',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    period: text('period', { enum: spendingPeriods }).notNull(),
    amount: integer('amount'),
    pendingAmount: integer('pending_amount'),
    pendingAt: timestamptz('pending_at'),
    updatedAt: timestamptz('updated_at').notNull().default(sql`now()`),
  },
  (table) => [primaryKey({ columns: [table.userId, table.period] })],
);

/** A delivered code. Only its HMAC is kept; a row exists only once the provider accepted the message. */
export const otpCodes = pgTable(
  'otp_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    phone: text('phone').notNull(),
    /**
     * The phone's country calling code ("237"), for the per-prefix SMS budget. '' only on codes sent
     * before the column existed, which left the budget's hourly window long ago.
     */
    callingCode: text('calling_code').notNull().default(''),
    channel: text('channel', { enum: otpChannels }).notNull(),
    /** Sign-in, or an account deletion's confirmation: a code is only good for its own purpose. */
    purpose: text('purpose', { enum: otpPurposes }).notNull().default('sign_in'),
    codeHash: text('code_hash').notNull(),
    /** The client network that asked for it (an IPv4 address or an IPv6 /64). */
    ip: text('ip').notNull(),
    /** Wrong tries from every network; 3 × OTP_MAX_ATTEMPTS of them void the code for good. */
    attempts: integer('attempts').notNull().default(0),
    sentAt: timestamptz('sent_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** Set when the code is used, voided by a newer one, or exhausted by wrong tries from all networks. */
    closedAt: timestamptz('closed_at'),
    createdAt: createdAt(),
  },
  (table) => [
    index('otp_codes_phone_sent_idx').on(table.phone, table.sentAt),
    index('otp_codes_ip_sent_idx').on(table.ip, table.sentAt),
    index('otp_codes_calling_code_sent_idx').on(table.callingCode, table.sentAt),
    // The global SMS budget counts the last hour's codes; the purge deletes the oldest.
    index('otp_codes_sent_idx').on(table.sentAt),
    index('otp_codes_expires_idx').on(table.expiresAt),
  ],
);

/**
 * One SMS the budgets counted: reserved before the code is sent (so sends in flight on several
 * processes cannot overrun a budget), deleted if the send fails, and counted for an hour.
 * `returning`: the number had verified a code before (a share of each budget is kept for those).
 */
export const smsBudgetSpend = pgTable(
  'sms_budget_spend',
  {
    id: serial('id').primaryKey(),
    callingCode: text('calling_code').notNull(),
    returning: boolean('returning').notNull(),
    /**
     * A stranger's network as the sign-up shares count it (lib/network.ts strangerNetwork: an IPv4
     * address, an IPv6 /48); null for a returning number, which no share limits.
     */
    network: text('network'),
    spentAt: timestamptz('spent_at').notNull(),
  },
  (table) => [
    index('sms_budget_spend_calling_code_idx').on(table.callingCode, table.spentAt),
    index('sms_budget_spend_spent_idx').on(table.spentAt),
    index('sms_budget_spend_network_idx')
      .on(table.network, table.spentAt)
      .where(sql`${table.network} IS NOT NULL`),
  ],
);

/**
 * Sign-up challenge proofs already accepted (decision 0104): a proof is good once. Kept by its
 * challenge's signature until the challenge expires; the housekeeping purge deletes them after.
 */
export const signupProofs = pgTable('signup_proofs', {
  signature: text('signature').primaryKey(),
  expiresAt: timestamptz('expires_at').notNull(),
});

/**
 * Which numbers each stranger network asked codes for while under pressure (decision 0122): one
 * that asked for many distinct numbers in the hour is a prober, challenged for every number. The
 * number is kept as a keyed tag, never in clear; the housekeeping purge deletes rows past the hour.
 */
export const otpAsks = pgTable(
  'otp_asks',
  {
    network: text('network').notNull(),
    phoneTag: text('phone_tag').notNull(),
    askedAt: timestamptz('asked_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.network, table.phoneTag] }),
    index('otp_asks_network_idx').on(table.network, table.askedAt),
    index('otp_asks_asked_idx').on(table.askedAt),
  ],
);

/**
 * Wrong tries on one code from one client network: OTP_MAX_ATTEMPTS of them void the code for that
 * network only, so a stranger who knows the phone cannot void its owner's code.
 */
export const otpNetworkAttempts = pgTable(
  'otp_network_attempts',
  {
    codeId: integer('code_id')
      .notNull()
      .references(() => otpCodes.id, { onDelete: 'cascade' }),
    network: text('network').notNull(),
    attempts: integer('attempts').notNull(),
  },
  (table) => [primaryKey({ columns: [table.codeId, table.network] })],
);

export const accessTokens = pgTable(
  'access_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    lastUsedAt: timestamptz('last_used_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
    createdAt: createdAt(),
  },
  (table) => [index('access_tokens_last_used_idx').on(table.lastUsedAt)],
);

/**
 * Single-use keys that open a token's event stream from a browser's EventSource, which cannot send
 * an Authorization header (DESIGN.md "Events"): the key's hash, the token it stands for, and when
 * it stops opening anything (60 s after issue). Taking a key deletes it, so it opens one stream
 * in whichever process it reaches; a token's revocation or purge takes its keys with it.
 */
export const streamKeys = pgTable(
  'stream_keys',
  {
    keyHash: text('key_hash').primaryKey(),
    tokenId: integer('token_id')
      .notNull()
      .references(() => accessTokens.id, { onDelete: 'cascade' }),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('stream_keys_expires_idx').on(table.expiresAt)],
);
