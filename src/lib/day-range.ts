// `from` / `to` filters of a list: UTC calendar days `YYYY-MM-DD`, both inclusive. A day that does
// not exist or a `from` after `to` is a 422 naming the field.
import { ValidationFailed } from './errors.js';
import { messages } from './messages.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day as a UTC midnight, or undefined. */
function utcDay(value: string): Date | undefined {
  const match = DAY.exec(value);
  if (!match) return undefined;
  const day = new Date(Date.UTC(+match[1]!, +match[2]! - 1, +match[3]!));
  // Date.UTC rolls 2026-02-30 over to March: such a day does not exist.
  return day.toISOString().slice(0, 10) === value ? day : undefined;
}

/** `from` as an ISO instant (inclusive) and `before`, the midnight after `to` (exclusive). */
export function dayRange(query: { from?: string; to?: string }): { from?: string; before?: string } {
  const from = query.from === undefined ? undefined : utcDay(query.from);
  const to = query.to === undefined ? undefined : utcDay(query.to);
  const errors: Record<string, string[]> = {};
  if (query.from !== undefined && !from) errors.from = [messages.invalidFromDate];
  if (query.to !== undefined && !to) errors.to = [messages.invalidToDate];
  if (from && to && from > to) errors.from = [messages.fromAfterTo];
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return {
    ...(from ? { from: from.toISOString() } : {}),
    ...(to ? { before: new Date(to.getTime() + 86_400_000).toISOString() } : {}),
  };
}
