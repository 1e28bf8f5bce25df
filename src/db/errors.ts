// What a failed statement says, the same on PostgreSQL and PGlite (both carry the server's SQLSTATE
// and constraint name), through Drizzle's wrapper (`DrizzleQueryError.cause`).
interface DatabaseErrorFields {
  code?: unknown;
  constraint?: unknown;
  cause?: unknown;
}

/** True when `error` is a unique violation (23505), of `constraint` when one is named. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current = error as DatabaseErrorFields | undefined, depth = 0; current && depth < 5; depth++) {
    if (current.code === '23505') return constraint === undefined || current.constraint === constraint;
    current = current.cause as DatabaseErrorFields | undefined;
  }
  return false;
}
