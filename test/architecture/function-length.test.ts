// No function in src/ over 200 lines (issue 49): scripts/architecture/function-length.ts measures
// every function, shown here catching planted long functions in memory, then the real tree must
// report none.
import { describe, expect, it } from 'vitest';
import {
  FUNCTION_LINE_LIMIT,
  longFunctions,
  readSources,
} from '../../scripts/architecture/function-length.js';

/** A body of `count` lines of statements. */
const statements = (count: number) =>
  Array.from({ length: count }, (_, i) => `  const v${i} = ${i};`).join('\n');

describe('the function-length check', () => {
  it('reports a function one line past the limit, and not one at the limit', () => {
    // A declaration's lines: its header, the body's statements, its closing brace.
    const atLimit = `export function fits() {\n${statements(FUNCTION_LINE_LIMIT - 2)}\n}\n`;
    const pastLimit = `export function tooLong() {\n${statements(FUNCTION_LINE_LIMIT - 1)}\n}\n`;
    expect(longFunctions({ 'src/a.ts': atLimit })).toEqual([]);
    expect(longFunctions({ 'src/b.ts': pastLimit })).toEqual([
      { name: 'tooLong', at: 'src/b.ts:1', lines: FUNCTION_LINE_LIMIT + 1 },
    ]);
  });

  it('counts a factory with its methods, each method on its own, and names arrows by their binding', () => {
    const factory = [
      '// a module opening',
      'export function createThing() {',
      '  return {',
      '    small() {',
      '      return 1;',
      '    },',
      '    big: () => {',
      statements(FUNCTION_LINE_LIMIT),
      '    },',
      '  };',
      '}',
      'export const page = perLocale((locale: string) => {',
      statements(FUNCTION_LINE_LIMIT),
      '});',
    ].join('\n');
    const found = longFunctions({ 'src/modules/thing/service.ts': factory });
    expect(found.map(({ name, at }) => `${name} ${at}`).sort()).toEqual([
      'big src/modules/thing/service.ts:7',
      'createThing src/modules/thing/service.ts:2',
      `page src/modules/thing/service.ts:${FUNCTION_LINE_LIMIT + 11}`,
    ]);
  });

  it('finds no function over the limit in src/', () => {
    const found = longFunctions(readSources());
    expect(found.map((fn) => `${fn.name} (${fn.at}): ${fn.lines} lines`)).toEqual([]);
  });
});
