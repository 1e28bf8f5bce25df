// The one normalisation of team and league names for matching: the search folding (lower-case,
// accents stripped) plus punctuation as spaces, so "Atlético  Madrid", "atletico-madrid" and
// "ATLETICO MADRID" meet. The seeded aliases in the migrations were written with it.
import { foldForSearch } from '../../lib/text.js';

export function normalizeName(name: string): string {
  return foldForSearch(name)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
