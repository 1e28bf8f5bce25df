// Four eyes (DESIGN, "Admin routes and the back office"; decision 0126): an action one admin asks
// for that a second, different admin must confirm. This module keeps the approvals and their rules
// (one pending per action and target, never decided by the one who asked, decided once); the
// module that owns the action (users for a promotion, money for a withdrawal) runs the effect in the
// confirming transaction, between `lockForDecision` and `decide`. Every step is audited; a request
// is raised as the admin event `approval.requested`.
import type { Static } from 'typebox';
import type { Database, Transaction } from '../../db/client.js';
import type { ApprovalAction, ApprovalStatus } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { ApprovalAlreadyDecided, ApprovalPending, NotFound, OwnApproval } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { isoTimestamp } from '../../lib/time.js';
import type { AdminEventLog } from '../events/service.js';
import {
  type ApprovalRow,
  findApproval,
  insertApprovalIfNone,
  lockApproval,
  lockPendingApproval,
  pageOfApprovals,
  setApprovalDecision,
} from './approvals-repository.js';
import type { ApprovalSchema, ApprovalsQuery } from './schemas.js';
import type { AuditRecorder } from './service.js';

export type { ApprovalRow } from './approvals-repository.js';
export type ApprovalView = Static<typeof ApprovalSchema>;

/** What each action is done to. */
const TARGET_TYPES = { 'user.promote': 'user', 'withdrawal.approve': 'withdrawal' } as const;

export function approvalView(row: ApprovalRow): ApprovalView {
  return {
    id: row.id,
    action: row.action,
    target: { type: row.targetType, id: row.targetId },
    requested_by: row.requestedBy,
    status: row.status,
    decided_by: row.decidedBy,
    decided_at: row.decidedAt === null ? null : isoTimestamp(row.decidedAt),
    created_at: isoTimestamp(row.createdAt),
  };
}

export interface ApprovalDeps {
  db: Database;
  clock: Clock;
  audit: AuditRecorder;
  events: AdminEventLog;
}

export function createApprovalService({ db, clock, audit, events }: ApprovalDeps) {
  async function decide(
    tx: Transaction,
    row: ApprovalRow,
    admin: { id: number },
    status: Exclude<ApprovalStatus, 'pending'>,
  ): Promise<ApprovalView> {
    const decided = await setApprovalDecision(tx, row.id, {
      status,
      decidedBy: admin.id,
      decidedAt: clock.now().toISOString(),
    });
    await audit.record(tx, {
      adminId: admin.id,
      action: status === 'confirmed' ? 'approval.confirm' : 'approval.reject',
      targetType: 'approval',
      targetId: row.id,
      details: {
        action: row.action,
        target: { type: row.targetType, id: row.targetId },
        requested_by: row.requestedBy,
      },
    });
    return approvalView(decided);
  }

  /**
   * The approval of `action` on `targetId`, locked for a decision by `admin`: NotFound (none, or one
   * of another action or target), decided already (409), their own (403).
   */
  async function lockForDecision(
    tx: Transaction,
    id: number,
    admin: { id: number },
    of: { action: ApprovalAction; targetId: number },
  ): Promise<ApprovalRow> {
    const row = await lockApproval(tx, id);
    if (!row || row.action !== of.action || row.targetId !== of.targetId) {
      throw new NotFound(messages.approvalNotFound);
    }
    if (row.status !== 'pending') throw new ApprovalAlreadyDecided();
    if (row.requestedBy === admin.id) throw new OwnApproval();
    return row;
  }

  return {
    /**
     * In the action's transaction, instead of its effect: a pending approval asked by `admin` (409
     * when one is pending already), audited and raised as `approval.requested`.
     */
    async request(
      tx: Transaction,
      admin: { id: number },
      action: ApprovalAction,
      targetId: number,
      details: Record<string, unknown> = {},
    ): Promise<ApprovalView> {
      const row = await insertApprovalIfNone(tx, {
        action,
        targetType: TARGET_TYPES[action],
        targetId,
        requestedBy: admin.id,
        details,
      });
      if (!row) throw new ApprovalPending();
      const view = approvalView(row);
      await audit.record(tx, {
        adminId: admin.id,
        action: 'approval.request',
        targetType: 'approval',
        targetId: row.id,
        details: { action, target: view.target, ...details },
      });
      await events.appendAdmin(tx, 'approval.requested', view);
      return view;
    },

    /** Refuses (409) a direct action while its approval is pending: the second admin confirms that one. */
    async refuseIfPending(tx: Transaction, action: ApprovalAction, targetId: number): Promise<void> {
      if (await lockPendingApproval(tx, action, targetId)) throw new ApprovalPending();
    },

    lockForDecision,
    decide,

    /** The approval as it is (NotFound when there is none): which module's confirm runs it. */
    async find(id: number): Promise<ApprovalRow> {
      const row = await findApproval(db, id);
      if (!row) throw new NotFound(messages.approvalNotFound);
      return row;
    },

    /** A second admin rejects it: nothing is done, the action may be asked for again. */
    async reject(admin: { id: number }, id: number): Promise<ApprovalView> {
      return db.transaction(async (tx) => {
        const row = await lockApproval(tx, id);
        if (!row) throw new NotFound(messages.approvalNotFound);
        return decide(tx, await lockForDecision(tx, id, admin, row), admin, 'rejected');
      });
    },

    /**
     * The target itself was decided otherwise (a withdrawal rejected): its pending approval, if any,
     * is rejected with it, by the admin who decided.
     */
    async cancelPending(
      tx: Transaction,
      admin: { id: number },
      action: ApprovalAction,
      targetId: number,
    ): Promise<void> {
      const row = await lockPendingApproval(tx, action, targetId);
      if (row) await decide(tx, row, admin, 'rejected');
    },

    /** The back office's list, newest first, optionally one status. */
    async list(query: Static<typeof ApprovalsQuery>) {
      const page = pageRequest(query);
      const { rows, total } = await pageOfApprovals(db, { status: query.status }, page);
      return { approvals: rows.map(approvalView), meta: pageMeta(page, total) };
    },
  };
}

export type ApprovalService = ReturnType<typeof createApprovalService>;
/** What the owners of a four-eyes action use: ask, refuse a direct action while pending, confirm, cancel. */
export type ApprovalDesk = Pick<
  ApprovalService,
  'request' | 'refuseIfPending' | 'lockForDecision' | 'decide' | 'cancelPending'
>;
