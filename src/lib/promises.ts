// Words that promise nothing (issue 54): no text of ours, and no narration an LLM writes for us,
// may promise winnings. `promisesOf` finds the promise phrases of both languages in a text, ignoring
// those that a negation just before takes back ("aucun gain n'est garanti", "no win is guaranteed").
// Pure; test/play/promises.test.ts runs it over every catalogue, the narration and the pages, and the
// openai narrator refuses an answer it flags (the built-in text then stands).

/** Promise phrases, as patterns over a text folded to lower case without accents. */
const PROMISES: readonly RegExp[] = [
  // French
  /\bgains? (?:est |sont )?garantis?\b/,
  /\bvictoires? (?:est |sont )?(?:assuree?s?|garantie?s?|certaines?)\b/,
  /\bgagnant(?:e|s)? (?:a coup sur|assure|garanti)\b/,
  /\b(?:a coup sur|coup sur)\b/,
  /\b100 ?% (?:sur|sure|garanti|gagnant|fiable)s?\b/,
  /\bsans (?:aucun )?risque\b/,
  /\bpronostics? (?:surs?|garantis?|infaillibles?)\b/,
  /\b(?:argent|gain) facile\b/,
  /\bgagnez (?:a tous les coups|a coup sur|gros)\b/,
  // English
  /\bguaranteed (?:win|wins|winnings|profits?|returns?|payout)\b/,
  /\b(?:wins?|winnings|profits?) (?:is |are )?guaranteed\b/,
  /\bsure (?:win|wins|thing|bet|bets)\b/,
  /\brisk[- ]free\b/,
  /\bcan(?:no|')t lose\b/,
  /\b100 ?% (?:sure|safe|guaranteed|certain|winning)\b/,
  /\beasy money\b/,
  /\bwin every time\b/,
];

/** Words that, a few words before a phrase, take the promise back. */
const NEGATION = /\b(?:aucun(?:e)?|pas|jamais|ni|rien|no|not|never|nothing|none|without)\b[^.;:!?]{0,30}$/;

/** The text folded for matching: lower case, accents and typographic apostrophes removed, spaces squeezed. */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’‘]/g, "'")
    .replace(/[\u00a0\u202f]/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

/** The promise phrases a text makes (folded), none when it makes none. */
export function promisesOf(text: string): string[] {
  const folded = fold(text);
  const found: string[] = [];
  for (const pattern of PROMISES) {
    const global = new RegExp(pattern.source, 'g');
    for (const match of folded.matchAll(global)) {
      const before = folded.slice(Math.max(0, match.index - 40), match.index);
      if (!NEGATION.test(before)) found.push(match[0]);
    }
  }
  return found;
}
