// The searchable text of a pronostic, written at creation and rewritten when its analysis succeeds:
// every string value of the match data, plus the result's pick label and analysis, folded
// (lower case, no accents) for DESIGN's case- and accent-insensitive `search`.
import { foldForSearch } from '../../lib/text.js';

export function searchTextOf(
  details: Record<string, unknown>,
  result?: Record<string, unknown> | null,
): string {
  const parts = Object.values(details).filter((value): value is string => typeof value === 'string');
  for (const key of ['pick_label', 'analysis']) {
    const value = result?.[key];
    if (typeof value === 'string') parts.push(value);
  }
  return foldForSearch(parts.join(' \u241f '));
}
