// The payout as the back office sees it on its withdrawal: the schema the admin routes answer with,
// and the type the payouts service's view returns (`Static<typeof PayoutSchema>`), so the shape is
// written once. The withdrawal's admin schema embeds it.
import { type Static, Type } from 'typebox';
import { paymentProviders, payoutStatuses } from '../../lib/allowed-values.js';
import { Timestamp } from '../../schemas/common.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

export const PayoutSchema = Type.Object({
  provider: Type.Enum(paymentProviders),
  reference: Type.String({ description: 'Ours, sent to the provider: wd-<id>' }),
  provider_reference: Nullable(Type.String()),
  provider_status: Nullable(Type.String()),
  status: Type.Enum(payoutStatuses, {
    description: 'pending until the provider’s final word (or an admin’s)',
  }),
  checks: Type.Integer(),
  create_attempted_at: Timestamp,
  create_answered_at: Nullable(Timestamp),
  next_check_at: Nullable(Timestamp),
  deadline_at: Timestamp,
  finished_at: Nullable(Timestamp),
});

export type PayoutView = Static<typeof PayoutSchema>;
