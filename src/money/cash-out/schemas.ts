// Request and response schemas of the withdrawals: the spec's field names exactly (a withdrawal, the
// request's 201/402), and the back office's view of a withdrawal with its payout (payout-schemas.ts's
// `PayoutSchema`). The views return these schemas' static types.
import { type Static, Type } from 'typebox';
import { payoutHandOutcomes, withdrawalDecisions, withdrawalStatuses } from '../../lib/allowed-values.js';
import { PageMetaSchema, PageQuery, Timestamp } from '../../schemas/common.js';
import { PayoutSchema } from './payout-schemas.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const WithdrawalSchema = Type.Object({
  id: Type.Integer(),
  amount: Type.Integer({ description: 'XAF' }),
  status: Type.Enum(withdrawalStatuses),
  message: Nullable(Type.String()),
  meta: Type.Object({
    phone: Type.String({ description: 'E.164' }),
    operator: Type.Object({ name: Type.String(), icon: Type.String({ description: 'A URL' }) }),
  }),
  created_at: Timestamp,
});

export const WithdrawalsQuery = Type.Object({
  status: Type.Optional(Type.Enum(withdrawalStatuses)),
  ...PageQuery,
});

export const WithdrawalsData = Type.Object({
  withdrawals: Type.Array(WithdrawalSchema),
  meta: PageMetaSchema,
});

export const WithdrawBody = Type.Object(
  {
    amount: Type.Integer({ description: 'XAF, at least WITHDRAW_MIN (5000 by default)' }),
    phone: Type.String({ minLength: 1, maxLength: 32, description: 'The receiving Cameroon mobile number' }),
    operator: Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 64 }),
        icon: Type.String({ minLength: 1, maxLength: 512, description: 'An http(s) URL' }),
      },
      { additionalProperties: false, description: 'What the client showed; display only' },
    ),
  },
  { additionalProperties: false },
);

export const WithdrawData = Type.Object({ balance: Type.Integer({ description: 'XAF, after the debit' }) });
export const WithdrawUser = Type.Object({ id: Type.Integer(), money_balance: Type.Integer() });

const Day = (description: string) => Type.String({ maxLength: 10, description, examples: ['2026-03-10'] });

export const AdminWithdrawalsQuery = Type.Object({
  status: Type.Optional(Type.Enum(withdrawalStatuses)),
  phone: Type.Optional(
    Type.String({ minLength: 1, maxLength: 32, description: 'E.164: the receiving number or the account’s' }),
  ),
  from: Type.Optional(Day('UTC date YYYY-MM-DD, inclusive')),
  to: Type.Optional(Day('UTC date YYYY-MM-DD, inclusive')),
  escalated: Type.Optional(
    Type.Union([Type.Literal('true'), Type.Literal('false')], {
      description: 'Only the payouts escalated to an admin (true) or the others (false)',
    }),
  ),
  ...PageQuery,
});

export const AdminWithdrawalSchema = Type.Object({
  ...WithdrawalSchema.properties,
  user: Type.Object({
    id: Type.Integer(),
    phone: Nullable(Type.String()),
    name: Nullable(Type.String()),
    status: Nullable(Type.String()),
  }),
  decision: Nullable(
    Type.Object({
      status: Type.Enum(withdrawalDecisions),
      admin_id: Nullable(Type.Integer()),
      message: Nullable(Type.String()),
      decided_at: Nullable(Timestamp),
    }),
  ),
  payout: Nullable(PayoutSchema),
  escalated: Type.Boolean({
    description: 'The payout needs an admin: stuck, unknown or refused at the provider',
  }),
  escalation: Nullable(Type.Object({ reason: Nullable(Type.String()), escalated_at: Timestamp })),
});

export const AdminWithdrawalsData = Type.Object({
  withdrawals: Type.Array(AdminWithdrawalSchema),
  meta: PageMetaSchema,
});

export const ApproveBody = Type.Object(
  { message: Type.Optional(Type.String({ maxLength: 500 })) },
  { additionalProperties: false },
);

export const RejectBody = Type.Object(
  { message: Type.String({ minLength: 3, maxLength: 500, description: 'Why; shown to the user' }) },
  { additionalProperties: false },
);

// The wire form stays a union of constants (as the published document has it), built from the list.
const [paidByHand, failedByHand] = payoutHandOutcomes;

export const ResolveBody = Type.Object(
  {
    outcome: Type.Union([Type.Literal(paidByHand), Type.Literal(failedByHand)], {
      description: 'paid: the money reached the user (success); failed: it did not (cancelled and refunded)',
    }),
    message: Type.String({
      minLength: 3,
      maxLength: 500,
      description: 'What the admin found; shown to the user when the payout failed',
    }),
    override: Type.Optional(
      Type.Boolean({
        description:
          'failed only: close it as failed although a provider read made now does not show a final failure (the message is the reason; audited)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ProviderReadData = Type.Object({
  provider_read: Type.Object({
    status: Nullable(Type.String({ description: 'The transfer’s status at the provider, as it says it' })),
    final_failure: Type.Boolean({
      description: 'A final failure: « failed » may then be resolved without override',
    }),
    error: Nullable(Type.String({ description: 'Why the provider could not be read (then status is null)' })),
    read_at: Timestamp,
  }),
});

export type WithdrawalView = Static<typeof WithdrawalSchema>;
export type AdminWithdrawalView = Static<typeof AdminWithdrawalSchema>;
export type WithdrawInput = Static<typeof WithdrawBody>;
export type WithdrawalsFilter = Static<typeof WithdrawalsQuery>;
export type AdminWithdrawalsFilter = Static<typeof AdminWithdrawalsQuery>;
export type ResolveInput = Static<typeof ResolveBody>;
