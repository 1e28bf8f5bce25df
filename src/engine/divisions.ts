// Linked divisions (issue 50): the divisions of one country's pyramid that sides move between by
// promotion and relegation. A side new to a division that was rated in a neighbouring one starts
// from that rating, moved by the link's offset (`MarketSettings.divisions`), instead of the
// generic "promoted side" prior. Only neighbours are linked: a side two steps away, or from a
// league outside the data, keeps the prior.

/** Each country's pyramid, top division first (football-data's codes). */
export const DIVISION_CHAINS: readonly (readonly string[])[] = [
  ['E0', 'E1', 'E2', 'E3', 'EC'],
  ['SC0', 'SC1', 'SC2', 'SC3'],
  ['D1', 'D2'],
  ['I1', 'I2'],
  ['SP1', 'SP2'],
  ['F1', 'F2'],
];

/** The key of a move from one division into another: `E1>E0` is promotion from E1 to E0. */
export const linkKey = (from: string, to: string) => `${from}>${to}`;

/** The divisions a side can come to `league` from: the one above and the one below, when linked. */
export function linkedDivisions(league: string): string[] {
  for (const chain of DIVISION_CHAINS) {
    const at = chain.indexOf(league);
    if (at >= 0) return [chain[at - 1], chain[at + 1]].filter((code): code is string => code !== undefined);
  }
  return [];
}

/** Every move between linked divisions, both ways (`E1>E0`, `E0>E1`, …). */
export const DIVISION_LINKS: readonly string[] = DIVISION_CHAINS.flatMap((chain) =>
  chain.slice(1).flatMap((lower, i) => [linkKey(lower, chain[i]!), linkKey(chain[i]!, lower)]),
);

/** A neighbouring division's history, read by a league's rating for the sides that come from it. */
export interface NeighbourHistory<M> {
  league: string;
  matches: readonly M[];
}

/** A league's code and its neighbours' histories: what a linked fit reads beside its own matches. */
export interface LinkedHistory<M> {
  league: string;
  neighbours: readonly NeighbourHistory<M>[];
}
