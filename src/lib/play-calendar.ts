// Responsible play's calendar (DESIGN, "Responsible play"): ages and spending windows are counted in
// Africa/Douala time, the users' own. Douala keeps UTC+1 all year (no daylight saving), so a fixed
// offset is exact and needs no time-zone data. Pure functions, no I/O.
import type { SpendingPeriod } from './allowed-values.js';

const DOUALA_OFFSET_MS = 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;
const DATE_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The calendar date in Douala at this instant, `YYYY-MM-DD`. */
export function doualaDate(instant: Date): string {
  return new Date(instant.getTime() + DOUALA_OFFSET_MS).toISOString().slice(0, 10);
}

/** The instant a Douala calendar date begins (its midnight, 23:00 UTC the day before). */
export function doualaMidnight(date: string): Date {
  return new Date(Date.parse(`${date}T00:00:00Z`) - DOUALA_OFFSET_MS);
}

/** `YYYY-MM-DD` as numbers, or undefined when it names no real day (2025-02-30). */
export function calendarDate(text: string): { year: number; month: number; day: number } | undefined {
  const match = DATE_FORMAT.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const probe = new Date(Date.UTC(year, month - 1, day));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) {
    return undefined;
  }
  return { year, month, day };
}

/**
 * Full years from `birthDate` to `today` (both `YYYY-MM-DD`). Someone born on 29 February has a
 * birthday on 1 March in other years (decision 0130): the day after 28 February.
 */
export function ageOn(birthDate: string, today: string): number {
  const born = calendarDate(birthDate);
  const now = calendarDate(today);
  if (!born || !now) throw new Error(`not a date: ${birthDate} / ${today}`);
  const beforeBirthday = now.month < born.month || (now.month === born.month && now.day < born.day);
  return now.year - born.year - (beforeBirthday ? 1 : 0);
}

/** A date of birth one may give on `today`: a real day, in the past, at most 120 years ago. */
export function acceptableBirthDate(birthDate: string, today: string): boolean {
  const now = calendarDate(today);
  if (!calendarDate(birthDate) || !now) return false;
  const oldest = `${String(now.year - 120).padStart(4, '0')}${today.slice(4)}`;
  return birthDate < today && birthDate >= oldest;
}

/** One spending window: its first day (the key of its total) and the instant the next one begins. */
export interface SpendingWindow {
  period: SpendingPeriod;
  start: string;
  resetsAt: Date;
}

/**
 * The windows an instant falls in: the Douala calendar day, its ISO week (Monday to Sunday) and its
 * calendar month.
 */
export function spendingWindowsAt(instant: Date): SpendingWindow[] {
  const today = doualaDate(instant);
  const day = new Date(`${today}T00:00:00Z`);
  const weekday = (day.getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  const monday = new Date(day.getTime() - weekday * DAY_MS);
  const firstOfMonth = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 1));
  const firstOfNext = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 1));
  const iso = (date: Date) => date.toISOString().slice(0, 10);
  return [
    { period: 'daily', start: today, resetsAt: doualaMidnight(iso(new Date(day.getTime() + DAY_MS))) },
    {
      period: 'weekly',
      start: iso(monday),
      resetsAt: doualaMidnight(iso(new Date(monday.getTime() + 7 * DAY_MS))),
    },
    { period: 'monthly', start: iso(firstOfMonth), resetsAt: doualaMidnight(iso(firstOfNext)) },
  ];
}
