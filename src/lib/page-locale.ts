// The language of a page a browser opens (/track-record, /account/delete, the console at /admin):
// `?lang=fr|en` first, then the `lang` cookie the page's FR / EN switch sets, then Accept-Language
// (the request's own choice, src/plugins/app/locale.ts), then French (DESIGN, "Languages"). A page
// is rendered on the server in that language, so its `<html lang>` is right in the HTML as sent.
// The switch is a plain link to `?lang=xx`: answering it sets the cookie, so it works without
// JavaScript and every later visit of any page keeps the choice.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_LOCALE, isLocale, type Locale } from './locale.js';

export const LANG_COOKIE = 'lang';
const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/** The `lang` cookie's value in a Cookie header, when it names a language we speak. */
export function cookieLocale(header: string | undefined): Locale | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== LANG_COOKIE) continue;
    const value = pair.slice(at + 1).trim();
    if (isLocale(value)) return value;
  }
  return undefined;
}

export interface PageLocaleSources {
  /** The query's `lang`, as sent (anything, or nothing). */
  query: unknown;
  cookie: string | undefined;
  /** What Accept-Language resolved to, undefined when it named neither language. */
  accepted: Locale | undefined;
}

/** The page's language and whether the query named it (then the answer sets the cookie). */
export function choosePageLocale(sources: PageLocaleSources): { locale: Locale; fromQuery: boolean } {
  if (isLocale(sources.query)) return { locale: sources.query, fromQuery: true };
  return {
    locale: cookieLocale(sources.cookie) ?? sources.accepted ?? DEFAULT_LOCALE,
    fromQuery: false,
  };
}

/**
 * Chooses a page's language for this request and writes what says so on the answer:
 * `Content-Language`, `Vary: Accept-Language, Cookie` (a cache must not hand an English page to a
 * French reader) and, when `?lang` named the language, the cookie that keeps it for a year.
 */
export function pageLocale(request: FastifyRequest, reply: FastifyReply): Locale {
  const { locale, fromQuery } = choosePageLocale({
    query: (request.query as Record<string, unknown> | undefined)?.lang,
    cookie: request.headers.cookie,
    accepted: request.askedLocale,
  });
  reply.header('content-language', locale).header('vary', 'Accept-Language, Cookie');
  if (fromQuery) {
    reply.header('set-cookie', `${LANG_COOKIE}=${locale}; Path=/; SameSite=Lax; Max-Age=${ONE_YEAR_SECONDS}`);
  }
  return locale;
}

/** The language a page's own script was asked for (`?lang=en` in its `src`); French otherwise. */
export function scriptLocale(request: FastifyRequest): Locale {
  const asked = (request.query as Record<string, unknown> | undefined)?.lang;
  return isLocale(asked) ? asked : DEFAULT_LOCALE;
}
