// Request and response schemas of the admin area: the errors every admin route lists, the audit log.
import { Type } from 'typebox';
import { approvalActions, approvalStatuses, approvalTargetTypes } from '../../lib/allowed-values.js';
import { authErrors, ErrorEnvelope, PageMetaSchema, PageQuery, Timestamp } from '../../schemas/common.js';

/** What every /api/admin/* route may answer besides its own: 401 without a token, 403 with a user's. */
export const adminErrors = { ...authErrors, 403: ErrorEnvelope } as const;

export const AuditEntrySchema = Type.Object({
  id: Type.Integer(),
  admin_id: Type.Integer(),
  action: Type.String({ examples: ['pack.create'] }),
  target_type: Type.String({ examples: ['pack'] }),
  target_id: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
  created_at: Timestamp,
});

export const AuditQuery = Type.Object({
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  target_type: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  ...PageQuery,
});

export const AuditListData = Type.Object({ entries: Type.Array(AuditEntrySchema), meta: PageMetaSchema });

/** Four eyes: an action waiting for (or decided by) a second admin (DESIGN's wire form). */
export const ApprovalSchema = Type.Object({
  id: Type.Integer(),
  action: Type.Enum(approvalActions),
  target: Type.Object({ type: Type.Enum(approvalTargetTypes), id: Type.Integer() }),
  requested_by: Type.Integer({ description: 'The admin who asked.' }),
  status: Type.Enum(approvalStatuses),
  decided_by: Type.Union([Type.Integer(), Type.Null()]),
  decided_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
});

export const ApprovalData = Type.Object({ approval: ApprovalSchema });

export const ApprovalsQuery = Type.Object({
  status: Type.Optional(Type.Enum(approvalStatuses)),
  ...PageQuery,
});

export const ApprovalListData = Type.Object({ approvals: Type.Array(ApprovalSchema), meta: PageMetaSchema });
