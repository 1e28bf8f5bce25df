// A ledger row as an answer shows it: the wallet's history, the dashboard's latest operations, an
// admin's credit adjustment and a user's operations in the back office all answer with this one
// shape (the spec's field names, exactly). It sits here, below the modules and money, because both
// answer with it.
import { Type } from 'typebox';
import { currencies, operationTypes } from '../lib/allowed-values.js';
import { Timestamp } from './common.js';

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
