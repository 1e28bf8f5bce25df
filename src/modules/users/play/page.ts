// The public page `/responsible-play` (issue 54): 18+, the risks, the limits and the pause the service
// offers, where to find help; rendered on the server in the page's language (src/lib/page-locale.ts),
// its texts the catalogue's (`playTexts.page`), no script. Every page links here beside its 18+ mark.
import { catalogueFor } from '../../../lib/messages.js';
import { languageSwitch, pageHead, perLocale } from '../../../lib/page-html.js';

const list = (items: readonly string[]) =>
  `<ul>\n${items.map((item) => `  <li>${item}</li>\n`).join('')}</ul>`;

/** The page's own style rules (`pageHead` adds the language switch's). */
const RESPONSIBLE_PLAY_STYLE = `  * { box-sizing: border-box; }
  body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 720px; padding: 1rem 1.25rem 3rem; color: #1d2330; line-height: 1.5; }
  h1 { font-size: 1.6rem; margin-top: .5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
  ul { padding-left: 1.4rem; }
`;

export const responsiblePlayPage = perLocale((locale) => {
  const t = catalogueFor(locale).playTexts.page;
  return `${pageHead(locale, t.title, RESPONSIBLE_PLAY_STYLE)}<body>
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
