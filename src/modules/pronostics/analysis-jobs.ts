// The pronostics module's published interface for the analysis worker: a pronostic row in
// `processing` is the job. The worker claims it, then ends the claim one way: success (with the
// result's search text), a retry later, a cancellation refunded in the same transaction, or a
// release on shutdown. Every write is fenced by the claimed attempt (see repository.ts).
import type { Database, Transaction } from '../../db/client.js';
import { catalogueFor } from '../../lib/messages.js';
import type { Ledger } from '../../types/ledger.js';
import type { UserEventLog } from '../events/service.js';
import {
  analysisBacklog,
  type ClaimedJob,
  claimNextJob,
  findLivePronostic,
  markCancelled,
  markSucceeded,
  releaseJob,
  scheduleRetry as scheduleJobRetry,
  storeMatrix,
} from './repository.js';
import { searchTextOf } from './search-text.js';
import { detailView } from './service.js';

export type { ClaimedJob } from './repository.js';

/** Why a pronostic was cancelled: stored as its `result` `{reason, message}`. */
export interface Cancellation {
  reason: 'analysis_failed' | 'timeout' | 'unsupported_type';
  /** For the user, in the pronostic's language (the worker runs in it). */
  message: string;
}

export interface AnalysisJobsDeps {
  db: Database;
  /** Moves balances with their ledger rows (money's ledger). */
  ledger: Ledger;
  /** The user's event log: the pronostic's end is reported in the transaction that writes it. */
  events: UserEventLog;
}

export function createAnalysisJobs({ db, ledger, events }: AnalysisJobsDeps) {
  /** The pronostic as its detail GET shows it now (a deleted one is still reported, by its id). */
  async function shown(tx: Transaction, job: ClaimedJob) {
    const found = await findLivePronostic(tx, job.id);
    return found ? detailView(found) : { id: job.id };
  }

  return {
    /** Rows still `processing` and the oldest one's creation in epoch seconds (the metrics). */
    backlog() {
      return analysisBacklog(db);
    },

    /** Leases the next due row until `leaseUntil`; undefined when none is due. */
    claimNext(now: Date, leaseUntil: Date): Promise<ClaimedJob | undefined> {
      return claimNextJob(db, now, leaseUntil);
    },

    /**
     * Stores the result, and which odds history row the analysis was given (`oddsId`); false when
     * the lease was lost meanwhile (the result is discarded).
     */
    succeed(
      job: ClaimedJob,
      outcome: {
        result: Record<string, unknown>;
        aiModel: string;
        oddsId?: number | null;
        scoreMatrix?: string;
      },
      now: Date,
    ): Promise<boolean> {
      const searchText = searchTextOf(job.teamsDetails, outcome.result);
      return db.transaction(async (tx) => {
        if (!(await markSucceeded(tx, job, { ...outcome, searchText }, now))) return false;
        // The matrix its markets were read off, for a slip's legs on this match (never shown).
        if (outcome.scoreMatrix) await storeMatrix(tx, job.id, outcome.scoreMatrix);
        await events.append(tx, job.userId, 'pronostic.succeeded', await shown(tx, job));
        return true;
      });
    },

    /** Gives the row back for another try at `runAfter`, keeping the error for the operator. */
    scheduleRetry(job: ClaimedJob, runAfter: Date, error: string): Promise<void> {
      return scheduleJobRetry(db, job, runAfter, error);
    },

    /** Cancels and refunds in one transaction; false when the claim was lost (nothing is written). */
    cancelAndRefund(job: ClaimedJob, cancellation: Cancellation, error: string, now: Date): Promise<boolean> {
      return db.transaction(async (tx) => {
        if (!(await markCancelled(tx, job, cancellation, error, now))) return false;
        const refund = await ledger.post(tx, {
          userId: job.userId,
          type: 'pronostic_refund',
          currency: 'credits',
          amount: job.creditsCost,
          // The pronostic's language (its account's at creation): no request is there to ask.
          description: `${catalogueFor(job.locale).messages.pronosticRefundDescription} #${job.id}`,
          reference: `pronostic:${job.id}:refund`,
        });
        await events.append(tx, job.userId, 'pronostic.cancelled', {
          ...(await shown(tx, job)),
          refund: {
            currency: 'credits',
            amount: job.creditsCost,
            operation_id: refund?.id ?? null,
            credits_balance: refund?.balanceAfter ?? null,
          },
        });
        return true;
      });
    },

    /** Gives the row back untried (shutdown): the attempt it claimed does not count. */
    release(job: ClaimedJob): Promise<void> {
      return releaseJob(db, job);
    },
  };
}

export type AnalysisJobs = ReturnType<typeof createAnalysisJobs>;
