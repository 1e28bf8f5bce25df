// The public page `/responsible-play` (issue 54): 18+, the risks, the limits and the pause the service
// offers, where to find help; rendered on the server in the page's language (src/lib/page-locale.ts),
// its texts the catalogue's (`playTexts.page`), no script. Every page links here beside its 18+ mark.
import { catalogueFor } from '../../../lib/messages.js';
import { LANGUAGE_SWITCH_STYLE, languageSwitch, perLocale } from '../../../lib/page-html.js';

const list = (items: readonly string[]) =>
  `<ul>\n${items.map((item) => `  <li>${item}</li>\n`).join('')}</ul>`;

export const responsiblePlayPage = perLocale((locale) => {
  const t = catalogueFor(locale).playTexts.page;
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t.title}</title>
<link rel="icon" href="data:,">
<style>
  * { box-sizing: border-box; }
  body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 720px; padding: 1rem 1.25rem 3rem; color: #1d2330; line-height: 1.5; }
  h1 { font-size: 1.6rem; margin-top: .5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
  ul { padding-left: 1.4rem; }
${LANGUAGE_SWITCH_STYLE}</style>
</head>
<body>
${languageSwitch(locale)}<h1>${t.title}</h1>
<p>${t.intro}</p>
<h2>${t.adults}</h2>
<p>${t.adultsText}</p>
<h2>${t.risks}</h2>
${list(t.riskItems)}
<h2>${t.tools}</h2>
${list(t.toolItems)}
<h2>${t.help}</h2>
${list(t.helpItems)}
</body>
</html>
`;
});
