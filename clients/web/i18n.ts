// The web apps' languages, French and English, and the helpers both apps' texts are picked with:
// the language a page asks for or was rendered in, the `lang` cookie the public pages share, and
// the plural form of a counted text. Each app keeps its own catalogues (webapp/src/i18n/,
// console/src/texts/): their texts differ, their machinery does not.

export type Language = 'fr' | 'en';
export const LANGUAGES: readonly Language[] = ['fr', 'en'];

/** The language of a tag ("en-GB" → "en"), or undefined for one the apps do not speak. */
export function languageOf(tag: string | null | undefined): Language | undefined {
  const primary = tag?.toLowerCase().split('-')[0];
  return primary === 'fr' || primary === 'en' ? primary : undefined;
}

/**
 * The language a page asks for: `?lang`, then the `lang` cookie (the one the public pages and the
 * FR / EN switch share), then the browser's languages, then French; the order the service follows
 * for its own pages (src/lib/page-locale.ts).
 */
export function askedLanguage(): Language {
  const asked = new URLSearchParams(location.search).get('lang');
  if (asked === 'fr' || asked === 'en') return asked;
  const cookie = /(?:^|;\s*)lang=(fr|en)(?:;|$)/.exec(document.cookie)?.[1];
  if (cookie === 'fr' || cookie === 'en') return cookie;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const language = languageOf(tag);
    if (language) return language;
  }
  return 'fr';
}

/** The language the service rendered the page in (`<html lang>`, chosen in the order above). */
export function pageLanguage(): Language {
  return document.documentElement.lang === 'en' ? 'en' : 'fr';
}

/** Makes `language` the page's (`<html lang>`) and keeps it a year in the shared `lang` cookie. */
export function rememberLanguage(language: Language): void {
  document.documentElement.lang = language;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari.
  document.cookie = `lang=${language}; Path=/; Max-Age=31536000; SameSite=Lax`;
}

const pluralRules = new Map<string, Intl.PluralRules>();

/** The form of a counted text for `count`, by `locale`'s plural rules. */
export function pluralOf<T>(locale: string, count: number, forms: { one: T; other: T }): T {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules.select(count) === 'one' ? forms.one : forms.other;
}
