// The web app's language: the one the page asks for (`?lang`, the `lang` cookie the public pages
// and the FR/EN switch share, the browser's languages, French: clients/web/i18n.ts), switched in
// the page without a reload. `t` fills `{name}` placeholders and picks a plural form; every API
// call says the language (Accept-Language), so the service's messages match the screens.
import { type Language, pluralOf, rememberLanguage } from '../../../clients/web/i18n.js';
import { en } from './en.js';
import { fr, type Texts } from './fr.js';

export type { Language };

const catalogues: Record<Language, Texts> = { fr, en };

type Plural = { one: string; other: string };
type Key = keyof Texts;

/** The language of the screens now; the app's root re-renders everything when it changes. */
let current: Language = 'fr';

export function currentLanguage(): Language {
  return current;
}

export function setLanguage(next: Language): void {
  current = next;
  rememberLanguage(next);
}

export function t(key: Key, values: Record<string, string | number> = {}): string {
  const entry = catalogues[current][key] as string | Plural;
  const text = typeof entry === 'string' ? entry : pluralOf(current, Number(values.count ?? 0), entry);
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? new Intl.NumberFormat(current).format(value) : value;
  });
}

export { catalogues };
