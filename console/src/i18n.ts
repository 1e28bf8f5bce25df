// The console's language: the one the service rendered index.html in (`<html lang>`, chosen per
// request as for the public pages: ?lang, the `lang` cookie the FR / EN switch sets,
// Accept-Language, French; src/lib/page-locale.ts). It holds for the page's life: the switch is a
// link, so choosing the other language loads the console again in it (the session stays, in
// sessionStorage). Every call to the service names it, so the API's messages come in it too. The
// language helpers are the web apps' shared ones (clients/web/i18n.ts).
import { type Language, pageLanguage, pluralOf } from '../../clients/web/i18n.js';
import { en } from './texts/en.js';
import { type ConsoleTexts, fr } from './texts/fr.js';

export const locale: Language = pageLanguage();

/** The console's texts in its language. */
export const t: ConsoleTexts = locale === 'en' ? en : fr;

/** The Intl locale numbers and dates are written with. */
export const intlLocale = locale === 'en' ? 'en-GB' : 'fr-FR';

/** The form of a counted text for `count`, by the console's language's plural rules. */
export function byCount<T>(count: number, forms: { one: T; other: T }): T {
  return pluralOf(intlLocale, count, forms);
}
