// Request and response schemas of the profile: the full user (DESIGN.md: what the dashboard and the
// profile show) and the profile update (name 2..60, username 3..30 of [a-z0-9_.], locale fr | en).
import { type Static, Type } from 'typebox';
import { locales, userRoles, userStatuses } from '../../lib/allowed-values.js';
import { PageQuery, Timestamp } from '../../schemas/common.js';
import { OperationSchema } from '../../schemas/operations.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const FullUserSchema = Type.Object({
  id: Type.Integer(),
  phone: Type.String(),
  country: Type.String(),
  name: Nullable(Type.String()),
  username: Nullable(Type.String()),
  avatar: Type.String({ description: 'Path starting with /, served without a token' }),
  affiliation_code: Type.String(),
  credits_balance: Type.Integer(),
  money_balance: Type.Integer({ description: 'XAF' }),
  locale: Type.Enum(locales, {
    description:
      'The account’s language: pushes, analyses and payout messages are written in it (set by Accept-Language at sign-in, or by the profile)',
  }),
  birth_date: Type.Union([Type.String(), Type.Null()], {
    description: 'YYYY-MM-DD, set once by the user (profile update); afterwards only an admin changes it',
  }),
  self_excluded_until: Type.Union([Timestamp, Type.Null()], {
    description: 'End of a self-exclusion (DESIGN, Responsible play); null when none was ever confirmed',
  }),
});

/** A calendar date as a client sends it; its being a real, past day is the service's check. */
export const BirthDate = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  examples: ['1990-04-21'],
  description: 'YYYY-MM-DD: in the past, at most 120 years ago',
});

export const USERNAME_PATTERN = '^[a-z0-9_.]{3,30}$';

export const UpdateProfileBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 60 })),
    username: Type.Optional(
      Type.String({ minLength: 3, maxLength: 30, pattern: USERNAME_PATTERN, examples: ['jean.dupont_237'] }),
    ),
    locale: Type.Optional(Type.Enum(locales, { description: 'The account’s language' })),
    birth_date: Type.Optional(BirthDate),
  },
  { description: 'At least one field' },
);

/** An account as the back office shows it. */
export const AdminUserSchema = Type.Object({
  id: Type.Integer(),
  phone: Type.Union([Type.String(), Type.Null()], { description: 'Null for a deleted account' }),
  country: Type.String(),
  name: Nullable(Type.String()),
  username: Nullable(Type.String()),
  role: Type.Enum(userRoles),
  status: Type.Enum(userStatuses),
  credits_balance: Type.Integer(),
  money_balance: Type.Integer({ description: 'XAF' }),
  created_at: Timestamp,
});

/** The largest credit adjustment one admin action may make, either way. */
export const ADJUST_MAX = 100_000;

export const AdminUserListQuery = Type.Object({
  search: Type.Optional(
    Type.String({
      maxLength: 100,
      description: 'Digits of a phone (partial, with or without +), or part of a username or a name',
    }),
  ),
  role: Type.Optional(Type.Enum(userRoles)),
  status: Type.Optional(Type.Enum(userStatuses)),
  ...PageQuery,
});

export const AdjustCreditsBody = Type.Object({
  amount: Type.Integer({
    minimum: -ADJUST_MAX,
    maximum: ADJUST_MAX,
    description: 'Non-zero credits: positive adds, negative removes (never below zero)',
  }),
  reason: Type.String({ minLength: 3, maxLength: 200, description: 'Shown to the user in their operations' }),
});

/** What an admin's credit adjustment answers: the account, its new balance, the ledger row. */
export const AdjustCreditsData = Type.Object({
  user: AdminUserSchema,
  credits_balance: Type.Integer(),
  operation: OperationSchema,
});

export type AdminUserQuery = Static<typeof AdminUserListQuery>;
export type CreditAdjustmentInput = Static<typeof AdjustCreditsBody>;

/** A spending limit in XAF, or null for none. */
const LimitAmount = Type.Union([Type.Integer({ minimum: 100, maximum: 100_000_000 }), Type.Null()]);
const PendingLimit = Type.Union([
  Type.Object({
    amount: Type.Union([Type.Integer(), Type.Null()], { description: 'null: the limit is removed' }),
    effective_at: Timestamp,
  }),
  Type.Null(),
]);

/** GET and POST /api/user/wallet/limits: the limits in force and the changes waiting their 72 h. */
export const LimitsData = Type.Object({
  limits: Type.Object({
    daily: Type.Union([Type.Integer(), Type.Null()]),
    weekly: Type.Union([Type.Integer(), Type.Null()]),
    monthly: Type.Union([Type.Integer(), Type.Null()]),
  }),
  pending: Type.Object({ daily: PendingLimit, weekly: PendingLimit, monthly: PendingLimit }),
});

export const LimitsBody = Type.Object(
  {
    daily: Type.Optional(LimitAmount),
    weekly: Type.Optional(LimitAmount),
    monthly: Type.Optional(LimitAmount),
  },
  {
    description:
      'Any of the three, in XAF (a whole number ≥ 100, or null to remove): lower or new at once, higher or null after 72 h',
  },
);

export const BirthDateBody = Type.Object({ birth_date: BirthDate });

export const AgeStatus = Type.Enum(['unknown', 'under_age', 'adult'], {
  description: 'No date of birth, under AGE_MINIMUM, or old enough',
});

export const BirthDateData = Type.Object({
  id: Type.Integer(),
  birth_date: Type.String(),
  age_status: AgeStatus,
});

/** What the back office shows of an account's responsible play, read-only. */
export const AccountPlaySchema = Type.Object({
  birth_date: Type.Union([Type.String(), Type.Null()]),
  age_status: AgeStatus,
  self_excluded_until: Type.Union([Timestamp, Type.Null()]),
  limits: LimitsData.properties.limits,
  pending: LimitsData.properties.pending,
});
