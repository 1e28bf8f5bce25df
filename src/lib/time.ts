// Timestamps leave the service as ISO 8601 UTC with microseconds and a Z. The database keeps
// microseconds and Drizzle hands them over as PostgreSQL text, which this turns into that form.
const PG_TIMESTAMP =
  /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?$/;

/** `2026-03-10 12:34:56.1234+00` → `2026-03-10T12:34:56.123400Z`. */
export function isoTimestamp(value: string | Date): string {
  if (value instanceof Date) return value.toISOString().replace('Z', '000Z');
  const match = PG_TIMESTAMP.exec(value.trim());
  if (!match) throw new Error(`unrecognised timestamp ${value}`);
  const [, day, hh, mm, ss, fraction = '', zulu, sign, offH = '00', offM = '00', offS = '00'] = match;
  const micros = fraction.padEnd(6, '0');
  const offsetSeconds = zulu || !sign ? 0 : (sign === '-' ? -1 : 1) * (+offH * 3600 + +offM * 60 + +offS);
  if (offsetSeconds === 0) return `${day}T${hh}:${mm}:${ss}.${micros}Z`;
  const utc = new Date(`${day}T${hh}:${mm}:${ss}Z`).getTime() - offsetSeconds * 1000;
  return `${new Date(utc).toISOString().slice(0, 19)}.${micros}Z`;
}

/** One UTC day in milliseconds. */
export const DAY_MS = 86_400_000;

/** The UTC day `YYYY-MM-DD` of an instant (epoch milliseconds). */
export function isoDay(instant: number): string {
  return new Date(instant).toISOString().slice(0, 10);
}

export function addSeconds(date: Date, seconds: number): Date {
  return new Date(date.getTime() + seconds * 1000);
}

/** A real calendar day `YYYY-MM-DD` as its UTC midnight, or undefined (2026-02-30 does not exist). */
export function utcDay(value: string): Date | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  const day = new Date(Date.UTC(+match[1]!, +match[2]! - 1, +match[3]!));
  return day.toISOString().slice(0, 10) === value ? day : undefined;
}
