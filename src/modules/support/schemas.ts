// Request and response schemas of support tickets (DESIGN.md: subject 3..150, message 10..5000,
// optional attachment JPEG/PNG/WebP/PDF by content, <= 5 MB; a reply 2..5000).
import { Type } from 'typebox';
import { ticketAuthors, ticketStatuses } from '../../lib/allowed-values.js';
import { PageMetaSchema, PageQuery, Timestamp } from '../../schemas/common.js';

export const SUBJECT_LENGTH = { min: 3, max: 150 } as const;
export const MESSAGE_LENGTH = { min: 10, max: 5000 } as const;
export const REPLY_LENGTH = { min: 2, max: 5000 } as const;

export const AttachmentSchema = Type.Object(
  {
    name: Type.String({ description: 'The file name the client sent' }),
    content_type: Type.String({
      description: 'Decided by the content: image/jpeg, image/png, image/webp or application/pdf',
    }),
    size: Type.Integer({ description: 'Bytes' }),
    url: Type.String({
      description: 'Path starting with /: the file, for the ticket’s owner and admins (bearer token)',
      examples: ['/api/user/support/ticket/12/attachment'],
    }),
  },
  { description: 'Null when the ticket has none' },
);

export const ReplySchema = Type.Object({
  id: Type.Integer(),
  message: Type.String(),
  author: Type.Enum(ticketAuthors),
  created_at: Timestamp,
});

export const TicketSchema = Type.Object({
  id: Type.Integer(),
  subject: Type.String(),
  message: Type.String(),
  status: Type.Enum(ticketStatuses),
  attachment: Type.Union([AttachmentSchema, Type.Null()]),
  replies: Type.Array(ReplySchema, { description: 'Oldest first' }),
  created_at: Timestamp,
});

export const AdminTicketSchema = Type.Object({
  ...TicketSchema.properties,
  user_id: Type.Integer({ description: 'The ticket’s owner' }),
  user: Type.Object(
    {
      id: Type.Integer(),
      phone: Type.Union([Type.String(), Type.Null()]),
      name: Type.Union([Type.String(), Type.Null()]),
      username: Type.Union([Type.String(), Type.Null()]),
    },
    { description: 'The ticket’s owner, as the back office shows it' },
  ),
  updated_at: Timestamp,
});

export const ReplyBody = Type.Object({
  message: Type.String({ minLength: REPLY_LENGTH.min, maxLength: REPLY_LENGTH.max }),
});

export const TicketListQuery = Type.Object({
  status: Type.Optional(Type.Enum(ticketStatuses)),
  ...PageQuery,
});

const Day = (description: string) => Type.String({ maxLength: 10, description, examples: ['2026-03-10'] });

export const AdminTicketListQuery = Type.Object({
  status: Type.Optional(Type.Enum(ticketStatuses)),
  from: Type.Optional(Day('UTC date YYYY-MM-DD, inclusive (created_at)')),
  to: Type.Optional(Day('UTC date YYYY-MM-DD, inclusive (created_at)')),
  ...PageQuery,
});

export const TicketListData = Type.Object({ tickets: Type.Array(TicketSchema), meta: PageMetaSchema });
export const AdminTicketListData = Type.Object({
  tickets: Type.Array(AdminTicketSchema),
  meta: PageMetaSchema,
});
