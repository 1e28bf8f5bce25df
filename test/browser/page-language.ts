// The language rule every server-rendered page follows (src/lib/page-locale.ts), checked through
// HTTP the same way for each page: `?lang` beats the `lang` cookie, which beats Accept-Language,
// which beats French; an invalid `?lang` is ignored; `<html lang>`, Content-Language and
// `Vary: Accept-Language, Cookie` are right on the answer as sent; the FR / EN switch's links set
// the cookie a later visit is rendered with.
import { expect } from 'vitest';
import type { TestApp } from '../helpers.js';

export const ONE_YEAR = 365 * 24 * 60 * 60;

export interface PageGet {
  status: number;
  lang: string | undefined;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** GETs `url` with the given Accept-Language and Cookie, and reads the `<html lang>` as sent. */
export async function getPage(
  t: TestApp,
  url: string,
  { accept, cookie }: { accept?: string; cookie?: string } = {},
): Promise<PageGet> {
  const headers: Record<string, string> = {};
  if (accept !== undefined) headers['accept-language'] = accept;
  if (cookie !== undefined) headers.cookie = cookie;
  const response = await t.app.inject({ method: 'GET', url, headers });
  return {
    status: response.statusCode,
    lang: /^<!doctype html>\s*<html lang="([^"]*)"/i.exec(response.body)?.[1],
    headers: response.headers,
    body: response.body,
  };
}

/** Every case of the rule, on one page; `heading` is the page's `<h1>` in each language. */
export async function expectLanguageRule(
  t: TestApp,
  path: string,
  heading: { fr: string; en: string },
): Promise<void> {
  const cases: Array<[string, { accept?: string; cookie?: string }, 'fr' | 'en', string]> = [
    [path, {}, 'fr', 'nothing asked: French'],
    [path, { accept: 'en-GB,en;q=0.9' }, 'en', 'Accept-Language'],
    [path, { accept: 'de, *;q=0.5' }, 'fr', 'Accept-Language naming neither'],
    [path, { accept: 'en', cookie: 'theme=dark; lang=fr' }, 'fr', 'the cookie beats Accept-Language'],
    [path, { accept: 'fr', cookie: 'lang=en' }, 'en', 'the cookie beats Accept-Language'],
    [path, { cookie: 'lang=de' }, 'fr', 'a cookie naming neither is ignored'],
    [`${path}?lang=fr`, { accept: 'en', cookie: 'lang=en' }, 'fr', '?lang beats the cookie'],
    [`${path}?lang=en`, { accept: 'fr', cookie: 'lang=fr' }, 'en', '?lang beats the cookie'],
    [`${path}?lang=de`, { accept: 'en' }, 'en', 'an invalid ?lang falls back'],
    [`${path}?lang=EN`, { cookie: 'lang=fr', accept: 'en' }, 'fr', 'an invalid ?lang falls back'],
    [`${path}?lang=`, {}, 'fr', 'an empty ?lang falls back'],
    [`${path}?lang=en&lang=fr`, { accept: 'en' }, 'en', 'a repeated ?lang is ignored'],
  ];
  for (const [url, sent, expected, why] of cases) {
    const label = `${url} ${JSON.stringify(sent)}: ${why}`;
    const page = await getPage(t, url, sent);
    expect(page.status, label).toBe(200);
    expect(page.lang, label).toBe(expected);
    expect(page.headers['content-language'], label).toBe(expected);
    expect(page.headers.vary, label).toBe('Accept-Language, Cookie');
    expect(page.body, label).toContain(`<h1>${heading[expected]}</h1>`);
    const named = /[?&]lang=(fr|en)(?:&|$)/.exec(url)?.[1];
    if (named && !url.includes('&lang=')) {
      // The switch's answer keeps the choice for a year and is the reader's own.
      expect(page.headers['set-cookie'], label).toBe(
        `lang=${named}; Path=/; SameSite=Lax; Max-Age=${ONE_YEAR}`,
      );
      expect(String(page.headers['cache-control']), label).toMatch(/^private, /);
    } else {
      expect(page.headers['set-cookie'], label).toBeUndefined();
      expect(String(page.headers['cache-control']), label).toMatch(/^public, /);
    }
  }
}

/** The switch: two links, each in its own language, the current one marked; following one keeps it. */
export async function expectSwitch(t: TestApp, path: string): Promise<void> {
  const french = await getPage(t, path);
  const nav = /<nav class="lang" aria-label="([^"]+)">(.*?)<\/nav>/.exec(french.body);
  expect(nav?.[1]).toBe('Langue');
  expect(nav?.[2]).toBe(
    '<a href="?lang=fr" hreflang="fr" lang="fr" aria-current="true">FR</a> <a href="?lang=en" hreflang="en" lang="en">EN</a>',
  );
  // Following EN: the link is relative to the page's own address.
  const href = /<a href="([^"]+)" hreflang="en"/.exec(french.body)![1]!;
  expect(href).toBe('?lang=en');
  const followed = await getPage(t, `${path}${href}`);
  expect(followed.lang).toBe('en');
  expect(followed.body).toContain('<nav class="lang" aria-label="Language">');
  expect(followed.body).toContain('<a href="?lang=en" hreflang="en" lang="en" aria-current="true">EN</a>');
  const cookie = String(followed.headers['set-cookie']).split(';')[0]!;
  expect(cookie).toBe('lang=en');
  // The next visit, without ?lang and from a French browser, stays English.
  const later = await getPage(t, path, { accept: 'fr', cookie });
  expect(later.lang).toBe('en');
}
