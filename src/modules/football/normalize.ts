// The one normalisation of team and league names for matching: lower-case, accents stripped,
// punctuation as spaces, so "Atlético  Madrid", "atletico-madrid" and "ATLETICO MADRID" meet.
export function normalizeName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
