// The web app's language: `?lang`, then the `lang` cookie (the one the public pages and the FR/EN
// switch share), then the browser's languages, then French. `t` fills `{name}` placeholders and
// picks a plural form with Intl.PluralRules; every API call says the language (Accept-Language),
// so the service's messages match the screens.
import { en } from './en.js';
import { fr, type Texts } from './fr.js';

export type Language = 'fr' | 'en';
const catalogues: Record<Language, Texts> = { fr, en };

type Plural = { one: string; other: string };
type Key = keyof Texts;

function fromCookie(): Language | undefined {
  const match = /(?:^|;\s*)lang=(fr|en)(?:;|$)/.exec(document.cookie);
  return match?.[1] as Language | undefined;
}

export function initialLanguage(): Language {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked === 'fr' || asked === 'en') return asked;
  const cookie = fromCookie();
  if (cookie) return cookie;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const primary = tag.toLowerCase().split('-')[0];
    if (primary === 'fr' || primary === 'en') return primary;
  }
  return 'fr';
}

/** The language of the screens now; the app's root re-renders everything when it changes. */
let current: Language = 'fr';

export function currentLanguage(): Language {
  return current;
}

export function setLanguage(next: Language): void {
  current = next;
  document.documentElement.lang = next;
  document.cookie = `lang=${next}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

export function t(key: Key, values: Record<string, string | number> = {}): string {
  const entry = catalogues[current][key] as string | Plural;
  let text: string;
  if (typeof entry === 'string') text = entry;
  else {
    const count = Number(values.count ?? 0);
    text = new Intl.PluralRules(current).select(count) === 'one' ? entry.one : entry.other;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? new Intl.NumberFormat(current).format(value) : value;
  });
}

export { catalogues };
