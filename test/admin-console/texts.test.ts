// The console's two catalogues (console/src/texts/): the same keys, and each text that takes
// arguments takes the same ones and uses each of them, in French and in English; and no French
// sentence left in the console's code outside them.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { en } from '../../console/src/texts/en.js';
import { fr } from '../../console/src/texts/fr.js';

type Shape = Record<string, string>;

/** Every leaf as path → what it is: `text`, or the markers a function's output keeps. */
function shapeOf(part: unknown, path = ''): Shape {
  if (typeof part === 'string') return { [path]: 'text' };
  if (typeof part === 'function') {
    const fn = part as (...args: string[]) => string;
    const markers = Array.from({ length: fn.length }, (_, index) => `⟦${index}⟧`);
    const output = fn(...markers);
    return { [path]: `(${markers.filter((m) => output.includes(m)).join(',')}) of ${fn.length}` };
  }
  if (part && typeof part === 'object') {
    return Object.assign(
      {},
      ...Object.entries(part).map(([key, value]) => shapeOf(value, path ? `${path}.${key}` : key)),
    );
  }
  throw new Error(`${path}: neither a text nor a function`);
}

describe('the console’s texts', () => {
  it('have the same keys and arguments in French and in English', () => {
    expect(shapeOf(en)).toEqual(shapeOf(fr));
  });

  it('use every argument they are given', () => {
    for (const [path, shape] of Object.entries(shapeOf(fr))) {
      const match = /^\((.*)\) of (\d+)$/.exec(shape);
      if (match) expect(match[1]!.split(',').filter(Boolean).length, path).toBe(Number(match[2]));
    }
  });

  it('are English in English: no text left in French', () => {
    const french = /[éèàùâêîôûç]|\b(le|la|les|des|du|une?|et|ou|pour|avec|sans|dans)\b/i;
    const same = new Set(['title', 'signIn.countries.CI', 'frame.brand']);
    for (const [path, text] of Object.entries(flatten(en))) {
      if (same.has(path)) continue;
      expect(text, path).not.toMatch(french);
    }
  });

  it('are the only place the console’s code writes French', () => {
    const root = join(process.cwd(), 'console', 'src');
    const files = (readdirSync(root, { recursive: true }) as string[])
      .filter((file) => /\.tsx?$/.test(file) && !file.startsWith('texts'))
      .map((file) => join(root, file));
    const found: string[] = [];
    for (const file of files) {
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, index) => {
          const code = line.replace(/\/\/.*$|^\s*\/?\*.*$/, '');
          if (/[éèàùâêîôûçÉÀ«»’]/.test(code))
            found.push(`${relative(root, file)}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(found).toEqual([]);
  });
});

function flatten(part: unknown, path = ''): Record<string, string> {
  if (typeof part === 'string') return { [path]: part };
  if (typeof part === 'function') {
    const fn = part as (...args: string[]) => string;
    return { [path]: fn(...Array.from({ length: fn.length }, () => '0')) };
  }
  return Object.assign(
    {},
    ...Object.entries(part as object).map(([key, value]) => flatten(value, path ? `${path}.${key}` : key)),
  );
}
