// Request and response schemas of the credit packs: the user's list, and the back office's list,
// creation and edit (limits: name 2..60 characters, 1..100000 credits, 1..10000000 whole XAF).
import { Type } from 'typebox';
import { PageMetaSchema, PageQuery, Timestamp } from '../../schemas/common.js';

const packFields = {
  id: Type.Integer(),
  name: Type.String(),
  credits: Type.Integer(),
  price: Type.Integer({ description: 'Whole XAF' }),
  currency: Type.Literal('XAF'),
};

/** A pack as users see it (DESIGN.md: `{id, name, credits, price, currency}`). */
export const PackSchema = Type.Object(packFields);

/** A pack as the back office sees it: whether it is on sale, and when it was created and last changed. */
export const AdminPackSchema = Type.Object({
  ...packFields,
  active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

const Name = Type.String({ minLength: 2, maxLength: 60 });
const Credits = Type.Integer({ minimum: 1, maximum: 100_000 });
const Price = Type.Integer({ minimum: 1, maximum: 10_000_000, description: 'Whole XAF' });

export const CreatePackBody = Type.Object({ name: Name, credits: Credits, price: Price });

export const UpdatePackBody = Type.Object(
  { name: Type.Optional(Name), credits: Type.Optional(Credits), price: Type.Optional(Price) },
  { description: 'At least one field; (de)activation has its own routes' },
);

export const AdminPackListQuery = Type.Object({ ...PageQuery });

export const AdminPackListData = Type.Object({ packs: Type.Array(AdminPackSchema), meta: PageMetaSchema });
