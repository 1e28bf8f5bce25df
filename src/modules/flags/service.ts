// Flags: contradictions an admin must see, for payments and withdrawals alike (a provider's word
// against our books: paid after we failed it, refunded after we credited it, not the amount we
// asked, still pending a day on, a driver that is not configured, news against a final payout).
// The module that finds one raises it in its own transaction (`raiseFlag`): one open flag per kind
// and target, once per provider event (a replayed webhook raises nothing; new news after a
// resolution opens a new flag), and news read with no event once per what it says; an admin lists them (open first) and resolves each with a note, audited. Resolving a
// `late_complete` payment may credit it once, through the payments module's published function.

import type { FastifyBaseLogger } from 'fastify';
import type { Static } from 'typebox';
import type { Database, Transaction } from '../../db/client.js';
import type { FlagKind, FlagTargetType } from '../../lib/allowed-values.js';
import { FlagAlreadyResolved, NotFound, OwnFlag, ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { isoTimestamp } from '../../lib/time.js';
import type { AuditRecorder } from '../admin/service.js';
import type { AdminEventLog } from '../events/service.js';
import { countFlags, type FlagRow, insertFlag, lockFlag, pageOfFlags, resolveFlagRow } from './repository.js';
import type { FlagSchema, FlagsQuery, ResolveFlagInput } from './schemas.js';

export interface RaisedFlag {
  kind: FlagKind;
  targetType: FlagTargetType;
  targetId: number;
  details: Record<string, unknown>;
  /** The provider's event (a webhook's id) that brought the news, when one did. */
  providerEvent?: string | null;
}

/**
 * Kinds our own clock or configuration finds, not a provider's news: an event that happens to
 * trigger the look does not make them new, so they are deduplicated by what they say.
 */
const notNews: ReadonlySet<FlagKind> = new Set<FlagKind>(['stuck_pending', 'driver_missing']);

/**
 * Raises a flag in the caller's transaction (it commits with what found it, or not at all). A no-op
 * while the same kind is open on the target, for a provider event that already raised it, and for
 * news with no event that a flag of this kind on this target already said. True when it is new,
 * and then logged.
 */
export async function raiseFlag(
  tx: Transaction,
  flag: RaisedFlag,
  logger?: FastifyBaseLogger,
  events?: AdminEventLog,
): Promise<boolean> {
  const providerEvent = notNews.has(flag.kind) ? null : (flag.providerEvent ?? null);
  const row = await insertFlag(tx, {
    kind: flag.kind,
    targetType: flag.targetType,
    targetId: flag.targetId,
    details: flag.details,
    providerEvent,
  });
  if (row) {
    await events?.appendAdmin(tx, 'flag.raised', flagView(row));
    logger?.warn(
      {
        flag_id: row.id,
        kind: flag.kind,
        target_type: flag.targetType,
        target_id: flag.targetId,
        ...flag.details,
      },
      'flag raised for an admin',
    );
  }
  return row !== undefined;
}

/** What a module that finds contradictions needs: a flag raised in its own transaction. */
export interface FlagRaiser {
  raise(tx: Transaction, flag: RaisedFlag, logger?: FastifyBaseLogger): Promise<boolean>;
}

/** The container's raiser: `raiseFlag` with the back office's event log, given to payments and payouts. */
export function createFlagRaiser(events?: AdminEventLog): FlagRaiser {
  return { raise: (tx, flag, logger) => raiseFlag(tx, flag, logger, events) };
}

export type FlagView = Static<typeof FlagSchema>;

function flagView(row: FlagRow): FlagView {
  return {
    id: row.id,
    kind: row.kind,
    target_type: row.targetType,
    target_id: row.targetId,
    details: row.details,
    status: row.status,
    note: row.note,
    resolved_by: row.resolvedBy,
    resolved_at: row.resolvedAt === null ? null : isoTimestamp(row.resolvedAt),
    created_at: isoTimestamp(row.createdAt),
  };
}

/** What resolving a `late_complete` flag with `credit: true` needs of the payments module. */
export interface LatePaymentCredits {
  /** Credits the payment's snapshot once (ledger reference `payment:<id>:late`), in the caller's transaction. */
  creditLatePayment(tx: Transaction, paymentId: number): Promise<{ credits: number; userId: number }>;
}

/** Who a flag's target belongs to, by target type (the payments and withdrawals modules answer). */
export type FlagTargetOwners = Record<
  FlagTargetType,
  { ownerOf(tx: Transaction, id: number): Promise<number | undefined> }
>;

export interface FlagServiceDeps {
  db: Database;
  audit: AuditRecorder;
  latePayments: LatePaymentCredits;
  /** An admin never resolves a flag about their own payment or withdrawal (separation of duties). */
  owners: FlagTargetOwners;
}

export function createFlagService({ db, audit, latePayments, owners }: FlagServiceDeps) {
  return {
    async list(query: FlagsQuery) {
      const page = pageRequest(query);
      const filter = { status: query.status, kind: query.kind, targetType: query.target_type };
      const { rows, total } = await pageOfFlags(db, filter, page);
      return { flags: rows.map(flagView), meta: pageMeta(page, total) };
    },

    /** Open flags, for the admin stats. */
    openCount(): Promise<number> {
      return countFlags(db, { status: 'open' });
    },

    /**
     * Resolves an open flag with the admin's note (OwnFlag when its payment or withdrawal is the
     * admin's own; FlagAlreadyResolved when it is not open), audited
     * as `flag.resolve` in the same transaction; `credit` (late_complete payment flags only) credits
     * the payment once.
     */
    async resolve(admin: { id: number }, id: number, input: ResolveFlagInput) {
      const note = input.message.trim();
      if (note.length < 3) throw ValidationFailed.field('message', messages.blankField);
      return db.transaction(async (tx) => {
        const flag = await lockFlag(tx, id);
        if (!flag) throw new NotFound(messages.flagNotFound);
        if ((await owners[flag.targetType].ownerOf(tx, flag.targetId)) === admin.id) throw new OwnFlag();
        if (flag.status !== 'open') throw new FlagAlreadyResolved();
        let credited: { credits: number; userId: number } | null = null;
        if (input.credit) {
          if (flag.kind !== 'late_complete' || flag.targetType !== 'payment') {
            throw ValidationFailed.field('credit', messages.flagCreditNotAllowed);
          }
          credited = await latePayments.creditLatePayment(tx, flag.targetId);
        }
        const row = await resolveFlagRow(tx, id, { note, resolvedBy: admin.id });
        await audit.record(tx, {
          adminId: admin.id,
          action: 'flag.resolve',
          targetType: 'flag',
          targetId: id,
          details: {
            kind: flag.kind,
            target_type: flag.targetType,
            target_id: flag.targetId,
            message: note,
            credited: credited?.credits ?? 0,
          },
        });
        return flagView(row);
      });
    },
  };
}

export type FlagService = ReturnType<typeof createFlagService>;
