// `from` / `to` filters of a list: UTC calendar days `YYYY-MM-DD`, both inclusive. A day that does
// not exist or a `from` after `to` is a 422 naming the field.
import { ValidationFailed } from './errors.js';
import { messages } from './messages.js';
import { DAY_MS, utcDay } from './time.js';

/**
 * `from` as an ISO instant (inclusive) and `before`, the midnight after `to` (exclusive). `errors`
 * holds the caller's other field errors, so one 422 names every bad field.
 */
export function dayRange(
  query: { from?: string; to?: string },
  errors: Record<string, string[]> = {},
): { from?: string; before?: string } {
  const from = query.from === undefined ? undefined : utcDay(query.from);
  const to = query.to === undefined ? undefined : utcDay(query.to);
  if (query.from !== undefined && !from) errors.from = [messages.invalidFromDate];
  if (query.to !== undefined && !to) errors.to = [messages.invalidToDate];
  if (from && to && from > to) errors.from = [messages.fromAfterTo];
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return {
    ...(from ? { from: from.toISOString() } : {}),
    ...(to ? { before: new Date(to.getTime() + DAY_MS).toISOString() } : {}),
  };
}
