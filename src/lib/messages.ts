// Every text the service shows a person, by key, in the language of the work in progress
// (src/lib/locale.ts): `messages.unauthenticated` reads the French catalogue for a French request
// and the English one for an English request. The catalogues themselves are src/lib/catalogues/;
// code refers to keys, never to sentences.

import { en } from './catalogues/en.js';
import { type Catalogue, fr } from './catalogues/fr.js';
import { currentLocale, type Locale } from './locale.js';

const catalogues: Record<Locale, Catalogue> = { fr, en };

/** One language's catalogue, for a text that names its language (an account's, a page's). */
export function catalogueFor(locale: Locale): Catalogue {
  return catalogues[locale];
}

/**
 * A part of the catalogue that reads the current language at each property access. Read a text
 * when it is used, never at module load: a constant taken at load time would stay French.
 */
function localized<Part extends keyof Catalogue>(part: Part): Catalogue[Part] {
  const current = (): Catalogue[Part] => catalogues[currentLocale()][part];
  return new Proxy({} as Catalogue[Part], {
    get: (_target, key) => Reflect.get(current(), key),
    has: (_target, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

export const messages = localized('messages');
export const adminTexts = localized('adminTexts');
export const validationMessages = localized('validationMessages');
export const otpTexts = localized('otpTexts');
export const accountTexts = localized('accountTexts');
export const paymentTexts = localized('paymentTexts');
export const withdrawalTexts = localized('withdrawalTexts');
export const pushTexts = localized('pushTexts');
export const playTexts = localized('playTexts');
export const slipTexts = localized('slipTexts');

export type MessageKey = keyof Catalogue['messages'];
export type { Catalogue };
