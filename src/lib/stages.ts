// A cup's or tournament's stage as a fixture shows it (issue 51, decision 0161): the heading its
// Football.TXT file or its admin wrote (`Group A`, `Round of 16`, `Quarter-finals, Leg 2`), in
// French for a French reader when the heading is one of the usual ones, else as written. English
// readers get the heading as written: the files are English already.
import type { Locale } from './allowed-values.js';

/** The longest stage an admin may give (the files' longest heading is about 40 characters). */
export const STAGE_MAX_LENGTH = 80;

const ORDINALS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4 };

/** `1er`, `2e`…: French ordinals of a qualifying round. */
const frenchOrdinal = (value: number) => (value === 1 ? '1er' : `${value}e`);

/** The usual headings (leg removed), each with its French name; tried in order. */
const FRENCH: Array<[RegExp, (match: RegExpExecArray) => string]> = [
  [/^group\s+stage$|^group\s+phase$|^groups$/i, () => 'Phase de groupes'],
  [/^group\s+(\S{1,3})$/i, (match) => `Groupe ${match[1]}`],
  [/^league\s+(?:phase|stage)$/i, () => 'Phase de ligue'],
  [/^matchday\s+(\d{1,2})$/i, (match) => `Journée ${match[1]}`],
  [/^round\s+of\s+32$/i, () => 'Seizièmes de finale'],
  [/^round\s+of\s+16$|^eighth[-\s]?finals?$/i, () => 'Huitièmes de finale'],
  [/^quarter[-\s]?finals?$/i, () => 'Quarts de finale'],
  [/^semi[-\s]?finals?$/i, () => 'Demi-finales'],
  [/^final$/i, () => 'Finale'],
  [/^(?:match\s+for\s+)?third[-\s]place(?:\s+(?:play-?off|match))?$/i, () => 'Match pour la 3e place'],
  [
    /^(?:knockout\s+(?:round\s+)?)?play-?offs?(?:\s+round)?$|^knockout\s+round\s+play-?offs$/i,
    () => 'Barrages',
  ],
  [
    /^(?:qual\.?|qualifying)\s+round\s+(\d)$/i,
    (match) => `${frenchOrdinal(Number(match[1]))} tour de qualification`,
  ],
  [
    /^(first|second|third|fourth)\s+qualifying\s+round$/i,
    (match) => `${frenchOrdinal(ORDINALS[match[1]!.toLowerCase()]!)} tour de qualification`,
  ],
];

/**
 * `…, Leg 2`, `… | Leg 1`, `… - 2nd leg`, `… (first leg)`, `…, match retour`: the heading without
 * its leg, and the leg.
 */
export function splitLeg(stage: string): { base: string; leg: 1 | 2 | null } {
  const match =
    /\s*(?:[,|\-–:]\s*|\(\s*|\s)(?:leg\s*([12])|(?:([12])(?:st|nd)|(first|second))\s+leg|match\s+(aller|retour))\s*\)?\s*$/i.exec(
      stage,
    );
  if (!match) return { base: stage.trim(), leg: null };
  const second =
    match[1] === '2' || match[2] === '2' || /^(second|retour)$/i.test(match[3] ?? match[4] ?? '');
  return { base: stage.slice(0, match.index).trim(), leg: second ? 2 : 1 };
}

/**
 * A stage in the reader's language: for `fr` a usual heading translated ("Round of 16, Leg 2" →
 * "Huitièmes de finale, match retour"), any other as written; for `en` as written. Null stays null.
 */
export function stageName(stage: string | null, locale: Locale): string | null {
  if (stage === null) return null;
  const written = stage.trim().replace(/\s+/g, ' ');
  if (written === '' || locale !== 'fr') return written || null;
  const { base, leg } = splitLeg(written);
  let french: string | undefined;
  for (const [pattern, name] of FRENCH) {
    const match = pattern.exec(base);
    if (match) {
      french = name(match);
      break;
    }
  }
  if (french === undefined) return written;
  return leg === null ? french : `${french}, match ${leg === 1 ? 'aller' : 'retour'}`;
}
