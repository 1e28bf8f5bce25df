// What comes first on a Cameroonian user's home screen (issue 52): the Indomitable Lions' next
// match and the continental tournament's upcoming matches. Who is Cameroonian is read from the
// account's phone (+237); the team and the tournament are named by the service's own names and
// codes (the national teams' file name, decision 0151's INT-AFCON). Pure, for the tests.

/** The Lions as the service stores them (their French name is the service's to give). */
export const LIONS = 'Cameroon';
/** The continental tournament a Cameroonian follows: the Africa Cup of Nations. */
export const CONTINENTAL_TOURNAMENT = 'INT-AFCON';

/** Whether an account's phone (E.164) is Cameroonian. */
export function isCameroonian(phone: string | null | undefined): boolean {
  return typeof phone === 'string' && phone.startsWith('+237');
}

/** The fixtures list without the ones already shown first (the Lions', the tournament's). */
export function withoutShown<T extends { id: number }>(fixtures: readonly T[], shown: readonly T[]): T[] {
  const ids = new Set(shown.map((fixture) => fixture.id));
  return fixtures.filter((fixture) => !ids.has(fixture.id));
}
