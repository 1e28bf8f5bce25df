// Request and response schemas of the event logs' history routes (DESIGN.md "Events").
import { Type } from 'typebox';
import { adminEventTypes, userEventTypes } from '../../lib/allowed-values.js';
import { PER_PAGE_MAX } from '../../lib/pagination.js';
import { LiteralUnion, Timestamp } from '../../schemas/common.js';

export const HistoryQuery = Type.Object({
  after: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2_147_483_647,
      description: 'The last seq the client has; 0 for all.',
    }),
  ),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: PER_PAGE_MAX })),
});

const eventSchema = <Types extends readonly string[]>(types: Types) =>
  Type.Object({
    id: Type.Integer({ description: 'The seq: increases by one per event of this log, with no gap.' }),
    type: LiteralUnion(types),
    created_at: Timestamp,
    data: Type.Record(Type.String(), Type.Unknown(), {
      description: 'The object the matching detail GET returns (for credits.adjusted, the ledger operation).',
    }),
  });

export const UserEventSchema = eventSchema(userEventTypes);
export const AdminEventSchema = eventSchema(adminEventTypes);

export const HistoryMeta = Type.Object({
  after: Type.Integer(),
  per_page: Type.Integer(),
  last_seq: Type.Integer({ description: 'The last seq this log handed out (0: none yet).' }),
  has_more: Type.Boolean({ description: 'More events follow this page: ask again after its last id.' }),
});

export const UserHistoryData = Type.Object({ events: Type.Array(UserEventSchema), meta: HistoryMeta });
export const AdminHistoryData = Type.Object({ events: Type.Array(AdminEventSchema), meta: HistoryMeta });

export const StreamKeyData = Type.Object({
  stream_key: Type.String({
    description: 'Opens one stream, within 60 s: `GET /api/user/events?stream_key=…`.',
  }),
  expires_at: Timestamp,
});
