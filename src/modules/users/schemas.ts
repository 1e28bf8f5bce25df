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
});

export const USERNAME_PATTERN = '^[a-z0-9_.]{3,30}$';

export const UpdateProfileBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 60 })),
    username: Type.Optional(
      Type.String({ minLength: 3, maxLength: 30, pattern: USERNAME_PATTERN, examples: ['jean.dupont_237'] }),
    ),
    locale: Type.Optional(Type.Enum(locales, { description: 'The account’s language' })),
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
