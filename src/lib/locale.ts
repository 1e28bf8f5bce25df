// The language a text is written in. French is the default and stays byte for byte what clients
// saw before English existed (DESIGN, "Languages"). A request's language is chosen once, in an
// onRequest hook, and carried by an AsyncLocalStorage scope, so a service that throws a domain
// error or a route that answers picks its text from the caller's catalogue without passing the
// language down every call; texts sent with no request there (push, narration, payout messages)
// name the account's language with `inLocale`.
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Locale, locales } from './allowed-values.js';

export const LOCALES = locales;
export type { Locale };
export const DEFAULT_LOCALE: Locale = 'fr';

const scope = new AsyncLocalStorage<Locale>();

/** The language of the work in progress: the request's, or the one `inLocale` named; French otherwise. */
export function currentLocale(): Locale {
  return scope.getStore() ?? DEFAULT_LOCALE;
}

/** Runs `work` (and everything it awaits) with texts in `locale`. */
export function inLocale<T>(locale: Locale, work: () => T): T {
  return scope.run(locale, work);
}

export function isLocale(value: unknown): value is Locale {
  return value === 'fr' || value === 'en';
}

// A header is a list of ranges; bounded so a stranger's 8 KB header costs a few microseconds.
const MAX_RANGES = 32;
const RANGE = /^([A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*|\*)$/;
const QUALITY = /^[qQ]=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * The language an `Accept-Language` header resolves to, or `undefined` when it names neither French
 * nor English (absent, `*` alone, other languages only, or malformed: q outside 0..1, garbage). The
 * caller falls back to French; `undefined` also tells the sign-in not to overwrite an account's
 * choice. Among `fr` and `en`, the higher q wins; on a tie, the one listed first.
 */
export function negotiateLocale(header: string | undefined): Locale | undefined {
  if (header === undefined || header.length === 0) return undefined;
  const ranges = header.split(',');
  if (ranges.length > MAX_RANGES) return undefined;
  let best: { locale: Locale; quality: number } | undefined;
  for (const raw of ranges) {
    const [tag = '', ...parameters] = raw.trim().split(';');
    const range = tag.trim();
    if (!RANGE.test(range)) return undefined;
    let quality = 1;
    for (const parameter of parameters) {
      const match = QUALITY.exec(parameter.trim());
      if (!match) return undefined;
      quality = Number(match[1]);
    }
    const primary = range.split('-')[0]!.toLowerCase();
    if (!isLocale(primary) || quality === 0) continue;
    if (best === undefined || quality > best.quality) best = { locale: primary, quality };
  }
  return best?.locale;
}
