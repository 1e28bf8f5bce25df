// The web app's two catalogues have the same keys, the same plural forms and the same placeholders,
// so a screen never shows a key or a `{name}` in one language only.
import { describe, expect, it } from 'vitest';
import { en } from '../../webapp/src/i18n/en.js';
import { fr } from '../../webapp/src/i18n/fr.js';

type Entry = string | { one: string; other: string };

function placeholders(entry: Entry): string[] {
  const texts = typeof entry === 'string' ? [entry] : [entry.one, entry.other];
  return [...new Set(texts.flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)))].sort();
}

function shape(catalogue: Record<string, Entry>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(catalogue).map(([key, entry]) => [
      key,
      `${typeof entry === 'string' ? 'text' : 'plural'}:${placeholders(entry).join(',')}`,
    ]),
  );
}

describe('the web app’s catalogues', () => {
  it('have the same keys, forms and placeholders in French and English', () => {
    expect(shape(en)).toEqual(shape(fr));
  });

  it('the check itself catches a missing key and a lost placeholder', () => {
    const { codeSentTo: _dropped, ...missing } = en;
    expect(shape(missing as Record<string, Entry>)).not.toEqual(shape(fr));
    expect(shape({ ...en, codeSentTo: 'Code sent.' })).not.toEqual(shape(fr));
  });

  it('never leaves a text empty or untranslated where French and English differ in words', () => {
    for (const [key, entry] of Object.entries(en)) {
      const texts = typeof entry === 'string' ? [entry] : [entry.one, entry.other];
      for (const text of texts) expect(text.trim(), key).not.toBe('');
    }
    expect(en.signinTitle).not.toBe(fr.signinTitle);
  });
});
