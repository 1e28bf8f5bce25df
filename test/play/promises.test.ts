// Words that promise nothing (issue 54): every catalogue (the service's, the web app's, the
// console's), the narration's phrases and source, and every page the server renders, in both
// languages, are scanned for promise phrases; negations stay allowed. The checker itself is tested
// first, on planted phrases, so a checker that finds nothing cannot pass. An LLM narration that
// promises a win is refused by the openai driver (the analyst then keeps the built-in text).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en as consoleEn } from '../../console/src/texts/en.js';
import { fr as consoleFr } from '../../console/src/texts/fr.js';
import { en } from '../../src/lib/catalogues/en.js';
import { fr } from '../../src/lib/catalogues/fr.js';
import { promisesOf } from '../../src/lib/promises.js';
import { readAnswer } from '../../src/providers/ai/openai.js';
import { NarrativeError } from '../../src/providers/ai/types.js';
import { en as webEn } from '../../webapp/src/i18n/en.js';
import { fr as webFr } from '../../webapp/src/i18n/fr.js';
import { createTestApp, type TestApp } from '../helpers.js';

/** Every text a catalogue holds: strings as they are, functions called with sample arguments. */
function textsOf(value: unknown, path = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[path, value]];
  if (typeof value === 'function') {
    const samples = [0.62, 2.4, 3, 0.55, 0.7];
    const args = Array.from({ length: value.length }, (_, index) =>
      index % 2 === 0 ? 'X' : samples[index % samples.length],
    );
    const numbers = Array.from({ length: value.length }, (_, index) => samples[index % samples.length]);
    const out: Array<[string, string]> = [];
    for (const tried of [args, numbers]) {
      try {
        out.push(...textsOf((value as (...a: unknown[]) => unknown)(...tried), `${path}()`));
      } catch {
        // A sample of the wrong kind: the other one is tried.
      }
    }
    return out;
  }
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) => textsOf(inner, path ? `${path}.${key}` : key));
  }
  return [];
}

const offending = (texts: Array<[string, string]>) =>
  texts.flatMap(([where, text]) => promisesOf(text).map((phrase) => `${where}: “${phrase}”`));

describe('the promise checker', () => {
  it.each([
    'Gain garanti sur ce match !',
    'Victoire assurée pour les Lions.',
    'Un pronostic 100 % sûr.',
    'Misez sans risque ce week-end.',
    'A guaranteed win tonight.',
    'This is a sure win.',
    'Risk-free tips, every day.',
    'Gagnant à coup sûr.',
    'Winnings are guaranteed.',
  ])('finds the promise in “%s”', (text) => {
    expect(promisesOf(text)).not.toEqual([]);
  });

  it.each([
    'Aucun gain n’est garanti.',
    'Aucun gain garanti : un pari peut toujours être perdu.',
    'No win is guaranteed.',
    'There is no guaranteed win.',
    'Ce n’est jamais sans risque.',
    'Nothing here is risk-free.',
    'une tendance forte, sans être une certitude',
  ])('lets the negation “%s” through', (text) => {
    expect(promisesOf(text)).toEqual([]);
  });

  it('fails a catalogue with a planted phrase, wherever it hides', () => {
    const planted = {
      ...fr,
      pages: { ...fr.pages, trackRecord: { ...fr.pages.trackRecord, intro: 'Victoire assurée !' } },
    };
    expect(offending(textsOf(planted))).toEqual(['pages.trackRecord.intro: “victoire assuree”']);
    const inFunction = { shout: (team: string) => `${team} : sure win` };
    expect(offending(textsOf(inFunction))).not.toEqual([]);
  });
});

describe('our texts promise nothing', () => {
  it('in the service’s catalogues, the narration’s phrases included', () => {
    expect(offending(textsOf({ fr, en }))).toEqual([]);
  });

  it('in the web app’s and the console’s catalogues', () => {
    expect(offending(textsOf({ webFr, webEn, consoleFr, consoleEn }))).toEqual([]);
  });

  it('in the narration’s own source', () => {
    const source = readFileSync(new URL('../../src/engine/narration.ts', import.meta.url), 'utf8');
    expect(promisesOf(source)).toEqual([]);
  });

  describe('in the pages the server renders, in both languages', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(() => t.close());

    it.each(['/responsible-play', '/track-record', '/account/delete', '/account/delete/app.js'])(
      '%s, with the 18+ mark and the link',
      async (url) => {
        for (const lang of ['fr', 'en']) {
          const page = await t.app.inject({ method: 'GET', url: `${url}?lang=${lang}` });
          expect(page.statusCode, `${url} ${lang}`).toBe(200);
          expect(promisesOf(page.body), `${url} ${lang}`).toEqual([]);
          if (!url.endsWith('.js')) {
            expect(page.body).toContain('<strong>18+</strong><a href="/responsible-play">');
          }
        }
      },
    );
  });
});

describe('an LLM narration that promises', () => {
  const answer = (analysis: string) => ({
    choices: [{ message: { content: JSON.stringify({ analysis }) } }],
  });
  const plain =
    'Le modèle voit un léger avantage pour l’équipe qui reçoit, avec des buts attendus modestes des deux côtés.';

  it('is refused by the driver, so the analyst keeps the built-in text', () => {
    expect(readAnswer(answer(plain))).toBe(plain);
    expect(() => readAnswer(answer(`${plain} Victoire assurée pour les locaux.`))).toThrow(NarrativeError);
    expect(() =>
      readAnswer(
        answer('The model sees a slight edge for the home side: a sure win, with few goals expected.'),
        'en',
      ),
    ).toThrow(/promises/);
  });
});
