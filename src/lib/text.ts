// Text folding for search: lower-case without accents, so "Séville" finds "seville" and "SEVILLE".
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/** Escapes LIKE's wildcards so a user's "%" or "_" matches itself. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** An error as one short line (a sync's failure beside its competition in the console). */
export function oneLine(error: unknown, max = 200): string {
  const text = error instanceof Error ? error.message : String(error);
  const first = (text.split(/\r?\n/, 1)[0] ?? '').trim();
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}
