// A fixture's competition as the screens name it, with its country (DESIGN, "Fixtures"): small and
// on its own, for the first screen's fixture list; the picker's logic is in competitions.ts.
import type { ResponseData } from '../../clients/typescript/client.js';

/** One competition as `GET /api/competitions` answers it (names in the request's language). */
export type Competition = ResponseData<'/api/competitions', 'get'>['competitions'][number];

/** A fixture's `league` as the service sends it (country and kind optional: an older service's answer). */
export interface FixtureLeague {
  code: string;
  name: string;
  country?: { code: string; name: string } | null;
  kind?: string;
}

/**
 * "Angleterre · Premier League": the fixture's own country when the service names it, else the
 * catalogue's entry for its code, else the name alone (a competition with no country: a cup).
 */
export function competitionLabel(
  league: FixtureLeague,
  byCode: ReadonlyMap<string, Competition> = new Map(),
): string {
  const known = byCode.get(league.code);
  const country = league.country === undefined ? known?.country : league.country;
  const name = known?.name ?? league.name;
  return country ? `${country.name} · ${name}` : name;
}
