// Response and query schemas of the wallet's history endpoints (the spec's field names, exactly).
import { Type } from 'typebox';
import { currencies, operationTypes } from '../../lib/allowed-values.js';
import { PageMetaSchema, PageQuery, Timestamp } from '../../schemas/common.js';

export const OperationSchema = Type.Object({
  id: Type.Integer(),
  type: Type.Enum(operationTypes),
  currency: Type.Enum(currencies),
  amount: Type.Integer({ description: 'Signed: positive credits the user, negative debits' }),
  balance_after: Type.Integer(),
  description: Type.String({ description: 'French, as shown to the user' }),
  reference: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
});

const Day = (description: string) => Type.String({ maxLength: 10, description, examples: ['2026-03-10'] });

export const OperationsQuery = Type.Object({
  type: Type.Optional(Type.Enum(operationTypes)),
  currency: Type.Optional(Type.Enum(currencies)),
  from: Type.Optional(Day('UTC date YYYY-MM-DD, inclusive')),
  to: Type.Optional(Day('UTC date YYYY-MM-DD, inclusive (up to the end of that day)')),
  ...PageQuery,
});

export const OperationsData = Type.Object({
  operations: Type.Array(OperationSchema),
  meta: PageMetaSchema,
});
