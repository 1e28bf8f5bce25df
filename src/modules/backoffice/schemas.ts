// Request and response schemas of the back office's user and dashboard routes.
import { Type } from 'typebox';
import { userRoles } from '../../lib/allowed-values.js';
import { PageMetaSchema, PageQuery, Timestamp } from '../../schemas/common.js';

export { AdjustCreditsBody, AdjustCreditsData, AdminUserListQuery } from '../users/schemas.js';

import { OperationSchema } from '../../schemas/operations.js';
import { ListedPronostic } from '../pronostics/schemas.js';
import { AccountPlaySchema, AdminUserSchema } from '../users/schemas.js';

export const AdminUserListData = Type.Object({ users: Type.Array(AdminUserSchema), meta: PageMetaSchema });

export const AdminUserDetailData = Type.Object({
  user: Type.Object({
    ...AdminUserSchema.properties,
    affiliation_code: Type.String(),
    godfather_id: Type.Union([Type.Integer(), Type.Null()]),
  }),
  pronostics: Type.Object(
    {
      total: Type.Integer(),
      processing: Type.Integer(),
      success: Type.Integer(),
      cancelled: Type.Integer(),
    },
    { description: 'Live (not deleted) pronostics by status' },
  ),
  payments: Type.Object({
    success_count: Type.Integer(),
    success_amount: Type.Integer({ description: 'XAF' }),
  }),
  withdrawals: Type.Object({
    pending_count: Type.Integer(),
    pending_amount: Type.Integer({ description: 'XAF' }),
  }),
  godchildren_count: Type.Integer(),
  play: Type.Object(AccountPlaySchema.properties, {
    description: 'Responsible play, read-only: age status, limits with pending changes, self-exclusion',
  }),
});

export const AdminUserPageQuery = Type.Object({ ...PageQuery });

export const AdminUserOperationsData = Type.Object({
  operations: Type.Array(OperationSchema),
  meta: PageMetaSchema,
});

export const AdminUserPronosticsData = Type.Object({
  pronostics: Type.Array(
    Type.Object({
      ...ListedPronostic.properties,
      deleted: Type.Boolean(),
      deleted_at: Type.Union([Timestamp, Type.Null()]),
    }),
  ),
  meta: PageMetaSchema,
});

export const RoleBody = Type.Object({ role: Type.Enum(userRoles) });

export const OneUserData = Type.Object({ user: AdminUserSchema });

const PronosticCounts = Type.Object({
  total: Type.Integer(),
  processing: Type.Integer(),
  success: Type.Integer(),
  cancelled: Type.Integer(),
});

const PaymentCounts = Type.Object({
  total: Type.Integer(),
  pending: Type.Integer(),
  success: Type.Integer(),
  failed: Type.Integer(),
  revenue: Type.Integer({ description: 'XAF of the successful payments' }),
});

/** Slips checked and saved (counts only: no user, no leg, no amount). */
const SlipCounts = Type.Object({ checked: Type.Integer(), saved: Type.Integer() });

const Day = Type.String({ description: 'UTC day', examples: ['2026-03-10'] });

export const StatsData = Type.Object({
  generated_at: Type.String(),
  today: Type.Object({
    day: Day,
    signups: Type.Integer(),
    pronostics: PronosticCounts,
    payments: PaymentCounts,
    slips: SlipCounts,
  }),
  last_30_days: Type.Object({
    from: Day,
    to: Day,
    signups: Type.Integer(),
    pronostics: PronosticCounts,
    payments: PaymentCounts,
    slips: SlipCounts,
  }),
  withdrawals_pending: Type.Object({
    count: Type.Integer(),
    amount: Type.Integer({ description: 'XAF' }),
  }),
  withdrawals_escalated: Type.Integer({ description: 'Pending withdrawals whose payout needs an admin' }),
  flags_open: Type.Integer({ description: 'Open flags (contradictions an admin must see)' }),
  series: Type.Array(
    Type.Object({
      day: Day,
      signups: Type.Integer(),
      pronostics: Type.Integer(),
      revenue: Type.Integer({ description: 'XAF' }),
      slips_checked: Type.Integer(),
      slips_saved: Type.Integer(),
    }),
    { description: 'The 30 UTC days, oldest first, today last' },
  ),
  engine_accuracy: Type.Union([
    Type.Null(),
    Type.Object({
      window: Type.Literal('last_30_days'),
      settled: Type.Integer(),
      won: Type.Integer(),
      lost: Type.Integer(),
      void: Type.Integer(),
      hit_rate: Type.Union([Type.Number(), Type.Null()]),
    }),
  ]),
});
