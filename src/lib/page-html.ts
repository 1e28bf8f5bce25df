// Pieces every server-rendered page shares (the public pages and the console's index): the FR / EN
// switch, and the quoting that puts a catalogue's text into HTML or into a page's script. A page's
// texts come from the catalogue of its language (src/lib/catalogues/, `pages`).
import { LOCALES, type Locale } from './locale.js';
import { catalogueFor } from './messages.js';

/** A text in an attribute value (`aria-label="…"`). */
export function attr(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/** A text as a single-quoted JavaScript string literal, as the pages' scripts write them. */
export function js(text: string): string {
  return `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;
}

const MARK = '\u0000';

/**
 * A catalogue text with placeholders as a JavaScript expression that fills them in the browser:
 * `jsText(t.updated, 'when')` is `'Mis à jour le ' + when + '.'`. The text is called with markers
 * in place of its arguments, so the sentence stays whole in the catalogue whatever its word order.
 */
export function jsText(text: (...args: string[]) => string, ...expressions: string[]): string {
  const filled = text(...expressions.map((_, index) => `${MARK}${index}${MARK}`));
  const pieces = filled.split(new RegExp(`${MARK}(\\d+)${MARK}`));
  const out: string[] = [];
  pieces.forEach((piece, index) => {
    if (index % 2 === 1) out.push(expressions[Number(piece)]!);
    else if (piece !== '') out.push(js(piece));
  });
  return out.join(' + ');
}

/** The switch's rule, one line in a page's `<style>`: two links, the current one marked. */
export const LANGUAGE_SWITCH_STYLE =
  '  nav.lang { display: flex; justify-content: flex-end; gap: .25rem; font-size: .9rem; } nav.lang a { display: inline-block; min-width: 2.75rem; padding: .3rem .5rem; text-align: center; border-radius: 6px; color: #1d4f91; } nav.lang a[aria-current] { background: #1d2330; color: #fff; text-decoration: none; }\n' +
  '  p.adults { display: flex; justify-content: flex-end; align-items: center; gap: .5rem; margin: .25rem 0 0; font-size: .9rem; } p.adults strong { border: 2px solid #b3261e; color: #b3261e; border-radius: 50%; padding: .15rem .3rem; font-size: .8rem; }\n';

/** Where every page's 18+ mark links: the service's own page, which sends on to RESPONSIBLE_PLAY_URL when another is set. */
export const RESPONSIBLE_PLAY_PATH = '/responsible-play';

/** The 18+ mark and the responsible-play link every page carries (issue 54), in the page's language. */
export function adultsMark(locale: Locale): string {
  const t = catalogueFor(locale).playTexts;
  return `<p class="adults"><strong>${t.adultsOnly}</strong><a href="${RESPONSIBLE_PLAY_PATH}">${t.link}</a></p>\n`;
}

/**
 * The FR / EN switch: plain links to `?lang=xx` (the server answers with the page in that language
 * and the cookie that keeps it, src/lib/page-locale.ts), so it works without JavaScript. Each link
 * is written in its own language; the current one is marked.
 */
export function languageSwitch(locale: Locale): string {
  const links = LOCALES.map(
    (each) =>
      `<a href="?lang=${each}" hreflang="${each}" lang="${each}"${each === locale ? ' aria-current="true"' : ''}>${each.toUpperCase()}</a>`,
  );
  // Every page that has the switch has the 18+ mark below it.
  return `<nav class="lang" aria-label="${attr(catalogueFor(locale).pages.languageSwitch)}">${links.join(' ')}</nav>\n${adultsMark(locale)}`;
}

/**
 * A public page's opening, to its `<body>`: the document in its language, the phone viewport, its
 * title, no favicon request, and its own style rules (each line indented by two spaces, ending
 * with a newline) followed by the FR / EN switch's.
 */
export function pageHead(locale: Locale, title: string, style: string): string {
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="data:,">
<style>
${style}${LANGUAGE_SWITCH_STYLE}</style>
</head>
`;
}

/** A page rendered once per language (its texts are fixed): `perLocale(render)(locale)`. */
export function perLocale(render: (locale: Locale) => string): (locale: Locale) => string {
  const rendered = new Map<Locale, string>();
  return (locale) => {
    let page = rendered.get(locale);
    if (page === undefined) {
      page = render(locale);
      rendered.set(locale, page);
    }
    return page;
  };
}
