// Responsible play's calendar (src/lib/play-calendar.ts): ages and spending windows in Africa/Douala
// time (UTC+1), pure.
import { describe, expect, it } from 'vitest';
import { acceptableBirthDate, ageOn, doualaDate, spendingWindowsAt } from '../../src/lib/play-calendar.js';
import { limitsView, nextLimit } from '../../src/modules/users/play.js';

describe('ages', () => {
  it('counts full years, the birthday itself included', () => {
    expect(ageOn('2008-11-29', '2026-11-28')).toBe(17);
    expect(ageOn('2008-11-29', '2026-11-29')).toBe(18);
    expect(ageOn('2008-11-29', '2027-01-01')).toBe(18);
  });

  it('has someone born on 29 February turn a year older on 1 March in other years', () => {
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
    expect(ageOn('2008-02-29', '2028-02-29')).toBe(20);
  });

  it('takes a real past day, at most 120 years ago', () => {
    expect(acceptableBirthDate('1990-04-21', '2026-11-29')).toBe(true);
    expect(acceptableBirthDate('1906-11-29', '2026-11-29')).toBe(true);
    expect(acceptableBirthDate('1906-11-28', '2026-11-29')).toBe(false);
    expect(acceptableBirthDate('2026-11-29', '2026-11-29')).toBe(false);
    expect(acceptableBirthDate('2030-01-01', '2026-11-29')).toBe(false);
    expect(acceptableBirthDate('2001-02-29', '2026-11-29')).toBe(false);
    expect(acceptableBirthDate('1990-4-21', '2026-11-29')).toBe(false);
  });
});

describe('Douala windows', () => {
  it('turns the day at 23:00 UTC', () => {
    expect(doualaDate(new Date('2026-03-10T22:59:59.999Z'))).toBe('2026-03-10');
    expect(doualaDate(new Date('2026-03-10T23:00:00.000Z'))).toBe('2026-03-11');
  });

  it('gives the day, the ISO week from Monday and the month, with when each resets', () => {
    // Sunday 15 March 2026, 23:30 in Douala.
    const windows = spendingWindowsAt(new Date('2026-03-15T22:30:00Z'));
    expect(windows.map((w) => [w.period, w.start, w.resetsAt.toISOString()])).toEqual([
      ['daily', '2026-03-15', '2026-03-15T23:00:00.000Z'],
      ['weekly', '2026-03-09', '2026-03-15T23:00:00.000Z'],
      ['monthly', '2026-03-01', '2026-03-31T23:00:00.000Z'],
    ]);
    // Half an hour later it is Monday: a new day and a new week, the same month.
    const next = spendingWindowsAt(new Date('2026-03-15T23:00:00Z'));
    expect(next.map((w) => w.start)).toEqual(['2026-03-16', '2026-03-16', '2026-03-01']);
  });

  it('runs a week across a year’s end (ISO weeks) and a month into the next year', () => {
    const windows = spendingWindowsAt(new Date('2026-12-31T12:00:00Z'));
    expect(windows.map((w) => w.start)).toEqual(['2026-12-31', '2026-12-28', '2026-12-01']);
    expect(windows[2]!.resetsAt.toISOString()).toBe('2026-12-31T23:00:00.000Z');
  });
});

describe('limit changes', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const none = { amount: null, pending: null };

  it('applies a new or lower limit at once and a higher one or a removal after 72 h', () => {
    expect(nextLimit(none, 5000, now)).toEqual({ amount: 5000, pendingAmount: null, pendingAt: null });
    expect(nextLimit({ amount: 5000, pending: null }, 2000, now)).toMatchObject({
      amount: 2000,
      pendingAt: null,
    });
    expect(nextLimit({ amount: 5000, pending: null }, 9000, now)).toEqual({
      amount: 5000,
      pendingAmount: 9000,
      pendingAt: '2026-03-13T12:00:00.000Z',
    });
    expect(nextLimit({ amount: 5000, pending: null }, null, now)).toMatchObject({
      amount: 5000,
      pendingAmount: null,
      pendingAt: '2026-03-13T12:00:00.000Z',
    });
  });

  it('keeps the date of a raise asked for again, and drops it when a lower limit comes', () => {
    const pending = { amount: 9000, effective_at: '2026-03-12T00:00:00.000000Z' };
    expect(nextLimit({ amount: 5000, pending }, 9000, now).pendingAt).toBe(pending.effective_at);
    expect(nextLimit({ amount: 5000, pending }, 4000, now)).toMatchObject({ amount: 4000, pendingAt: null });
  });

  it('reads a pending change whose time has come as applied', () => {
    const row = {
      userId: 1,
      period: 'daily' as const,
      amount: 5000,
      pendingAmount: 9000,
      pendingAt: '2026-03-13T12:00:00.000000Z',
      updatedAt: '2026-03-10T12:00:00Z',
    };
    expect(limitsView([row], now).limits.daily).toBe(5000);
    expect(limitsView([row], now).pending.daily).toEqual({ amount: 9000, effective_at: row.pendingAt });
    const later = new Date('2026-03-13T12:00:00Z');
    expect(limitsView([row], later)).toMatchObject({ limits: { daily: 9000 }, pending: { daily: null } });
  });
});
