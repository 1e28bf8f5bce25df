// Raising a flag: a contradiction an admin must see (a provider's word against our books), raised by
// checkout or cash-out in the transaction that found it. One open flag per kind and target, once per
// provider event (a replayed webhook raises nothing; new news after a resolution opens a new flag),
// and news read with no event once per what it says.
import type { FastifyBaseLogger } from 'fastify';
import type { Static } from 'typebox';
import type { Transaction } from '../../db/client.js';
import type { FlagKind, FlagTargetType } from '../../lib/allowed-values.js';
import { isoTimestamp } from '../../lib/time.js';
import type { AdminEventLog } from '../../modules/events/service.js';
import { type FlagRow, insertFlag } from './repository.js';
import type { FlagSchema } from './schemas.js';

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

export function flagView(row: FlagRow): FlagView {
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
