// The back office's composed reads: a user's detail (the account and its figures from the modules
// that own them) and the dashboard's figures of the day and the last 30 days. It owns no table and
// writes nothing: each figure comes from its module's service, aggregated in SQL (one grouped query
// per table), and the 30 UTC days are cut with the one clock.

import type { Clock } from '../../lib/clock.js';
import { NotFound } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { DAY_MS, isoDay } from '../../lib/time.js';
import type { FlagService, PaymentService, WithdrawalService } from '../../money/index.js';
import type { ApprovalService } from '../admin/approvals.js';
import type { AffiliationService } from '../affiliation/service.js';
import type { PronosticService } from '../pronostics/service.js';
import type { SlipService } from '../slips/service.js';
import type { TrackRecordService } from '../track-record/service.js';
import type { UserService } from '../users/service.js';
import { adminUserView } from '../users/views.js';

/** The dashboard's window: today and the 29 UTC days before it. */
export const STATS_DAYS = 30;

export interface BackofficeServiceDeps {
  clock: Clock;
  users: Pick<UserService, 'findById' | 'signupsByDay' | 'confirmPromotion' | 'playOfAccount'>;
  pronostics: Pick<PronosticService, 'countsOf' | 'byDayAndStatus'>;
  payments: Pick<PaymentService, 'successTotalsOf' | 'byDayAndStatus'>;
  affiliation: Pick<AffiliationService, 'godchildrenCountOf'>;
  withdrawals: Pick<
    WithdrawalService,
    'pendingTotalsOf' | 'pendingTotals' | 'escalatedCount' | 'confirmApproval'
  >;
  flags: Pick<FlagService, 'openCount'>;
  trackRecord: Pick<TrackRecordService, 'publicRecord'>;
  /** Four eyes: the approvals a second admin confirms (the effect is the owning module's). */
  approvals: Pick<ApprovalService, 'find'>;
  slips: Pick<SlipService, 'byDay'>;
}

interface PeriodFigures {
  signups: number;
  pronostics: { total: number; processing: number; success: number; cancelled: number };
  payments: { total: number; pending: number; success: number; failed: number; revenue: number };
  slips: { checked: number; saved: number };
}

function emptyFigures(): PeriodFigures {
  return {
    signups: 0,
    pronostics: { total: 0, processing: 0, success: 0, cancelled: 0 },
    payments: { total: 0, pending: 0, success: 0, failed: 0, revenue: 0 },
    slips: { checked: 0, saved: 0 },
  };
}

export function createBackofficeService(deps: BackofficeServiceDeps) {
  const {
    clock,
    users,
    pronostics,
    payments,
    affiliation,
    withdrawals,
    flags,
    trackRecord,
    approvals,
    slips,
  } = deps;

  return {
    /**
     * A second admin confirms a pending approval: the module that owns the action runs it, and the
     * answer holds the approval and the effect's object (`user` or `withdrawal`).
     */
    async confirmApproval(admin: { id: number }, id: number) {
      const approval = await approvals.find(id);
      if (approval.action === 'user.promote') {
        return users.confirmPromotion(admin, approval.id, approval.targetId);
      }
      return withdrawals.confirmApproval(admin, approval.id, approval.targetId);
    },

    /** NotFound when the account does not exist. */
    async requireUser(id: number): Promise<void> {
      if (!(await users.findById(id))) throw new NotFound(messages.userNotFound);
    },

    /** The account and its figures: pronostics by status, payments, pending withdrawals, godchildren. */
    async userDetail(id: number) {
      const [user, counts, paid, pending, godchildren, play] = await Promise.all([
        users.findById(id),
        pronostics.countsOf(id),
        payments.successTotalsOf(id),
        withdrawals.pendingTotalsOf(id),
        affiliation.godchildrenCountOf(id),
        users.playOfAccount(id),
      ]);
      if (!user || !play) throw new NotFound(messages.userNotFound);
      return {
        user: {
          ...adminUserView(user),
          affiliation_code: user.affiliationCode,
          godfather_id: user.godfatherId,
        },
        pronostics: counts,
        payments: { success_count: paid.count, success_amount: paid.amount },
        withdrawals: { pending_count: pending.count, pending_amount: pending.amount },
        godchildren_count: godchildren,
        play,
      };
    },

    /** Today and the last 30 UTC days (today included), a daily series, pending withdrawals, accuracy. */
    async stats() {
      const now = clock.now().getTime();
      const todayStart = now - (now % DAY_MS);
      const from = todayStart - (STATS_DAYS - 1) * DAY_MS;
      const range = {
        from: new Date(from).toISOString(),
        before: new Date(todayStart + DAY_MS).toISOString(),
      };
      const [signups, pronosticRows, paymentRows, pending, escalated, flagsOpen, record, slipRows] =
        await Promise.all([
          users.signupsByDay(range),
          pronostics.byDayAndStatus(range),
          payments.byDayAndStatus(range),
          withdrawals.pendingTotals(),
          withdrawals.escalatedCount(),
          flags.openCount(),
          trackRecord.publicRecord(),
          slips.byDay(range),
        ]);
      const days = Array.from({ length: STATS_DAYS }, (_, i) => isoDay(from + i * DAY_MS));
      const byDay = new Map(days.map((day) => [day, emptyFigures()]));
      for (const row of signups) {
        const figures = byDay.get(row.day);
        if (figures) figures.signups += row.total;
      }
      for (const row of pronosticRows) {
        const figures = byDay.get(row.day);
        if (!figures) continue;
        figures.pronostics.total += row.total;
        figures.pronostics[row.status] += row.total;
      }
      for (const row of paymentRows) {
        const figures = byDay.get(row.day);
        if (!figures) continue;
        figures.payments.total += row.total;
        figures.payments[row.status] += row.total;
        if (row.status === 'success') figures.payments.revenue += row.amount;
      }
      for (const row of slipRows) {
        const figures = byDay.get(row.day);
        if (figures) figures.slips = { checked: row.checked, saved: row.saved };
      }
      const sum = (list: PeriodFigures[]): PeriodFigures => {
        const total = emptyFigures();
        for (const figures of list) {
          total.signups += figures.signups;
          for (const key of Object.keys(total.pronostics) as (keyof PeriodFigures['pronostics'])[]) {
            total.pronostics[key] += figures.pronostics[key];
          }
          for (const key of Object.keys(total.payments) as (keyof PeriodFigures['payments'])[]) {
            total.payments[key] += figures.payments[key];
          }
          total.slips.checked += figures.slips.checked;
          total.slips.saved += figures.slips.saved;
        }
        return total;
      };
      const today = days[days.length - 1]!;
      const accuracy = record.overall.last_30_days;
      return {
        generated_at: new Date(now).toISOString(),
        today: { day: today, ...byDay.get(today)! },
        last_30_days: { from: days[0]!, to: today, ...sum([...byDay.values()]) },
        withdrawals_pending: pending,
        withdrawals_escalated: escalated,
        flags_open: flagsOpen,
        series: days.map((day) => {
          const figures = byDay.get(day)!;
          return {
            day,
            signups: figures.signups,
            pronostics: figures.pronostics.total,
            revenue: figures.payments.revenue,
            slips_checked: figures.slips.checked,
            slips_saved: figures.slips.saved,
          };
        }),
        engine_accuracy:
          accuracy.settled === 0
            ? null
            : {
                window: 'last_30_days' as const,
                settled: accuracy.settled,
                won: accuracy.won,
                lost: accuracy.lost,
                void: accuracy.void,
                hit_rate: accuracy.hit_rate,
              },
      };
    },
  };
}

export type BackofficeService = ReturnType<typeof createBackofficeService>;
