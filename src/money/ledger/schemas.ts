// Response and query schemas of the wallet's history endpoints (the spec's field names, exactly); a
// row's shape is shared with other modules' answers (src/schemas/operations.ts).
import { Type } from 'typebox';
import { currencies, operationTypes } from '../../lib/allowed-values.js';
import { PageMetaSchema, PageQuery } from '../../schemas/common.js';
import { OperationSchema } from '../../schemas/operations.js';

export { OperationSchema };

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
