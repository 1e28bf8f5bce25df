// The module-loop rule: each module of src/modules, and each capability folder (src/money), is one
// node; an import between two nodes is an arrow, type-only ones included; any circle is a loop.
// Planted in memory as dependency-cruiser's JSON output, then checked on today's src/.
import type { ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { cruiseSources } from '../../scripts/architecture/cruise.js';
import { describeLoop, moduleLoops, nodeOf } from '../../scripts/architecture/module-loops.js';

/** Each file and what it imports, `'type src/…'` for a type-only import (as the dependency-rules test). */
type Tree = Record<string, string[]>;

function cruised(tree: Tree): Pick<ICruiseResult, 'modules'> {
  const modules = Object.entries(tree).map(([source, imports]) => ({
    source,
    dependencies: imports.map((target) => {
      const typeOnly = target.startsWith('type ');
      return {
        resolved: typeOnly ? target.slice('type '.length) : target,
        dependencyTypes: typeOnly ? ['local', 'import', 'type-only'] : ['local', 'import'],
      };
    }),
  }));
  return { modules } as unknown as Pick<ICruiseResult, 'modules'>;
}

describe('the module-loop rule', () => {
  it('makes one node of a module, one of a capability, none of the rest', () => {
    expect(nodeOf('src/modules/fixtures/service.ts')).toBe('fixtures');
    expect(nodeOf('src/modules/football/odds/columns.ts')).toBe('football');
    expect(nodeOf('src/money/index.ts')).toBe('money');
    expect(nodeOf('src/money/cash-out/steps.ts')).toBe('money');
    expect(nodeOf('src/lib/time.ts')).toBeUndefined();
    expect(nodeOf('src/runtime/analysis-worker.ts')).toBeUndefined();
  });

  it('catches a loop of two modules made of type-only imports', () => {
    const loops = moduleLoops(
      cruised({
        'src/modules/football/analyst.ts': ['type src/modules/pronostics/analyst.ts'],
        'src/modules/pronostics/service.ts': ['type src/modules/football/service.ts'],
      }),
    );
    expect(loops.map((loop) => loop.circle)).toEqual([['football', 'pronostics', 'football']]);
    expect(describeLoop(loops[0]!)).toContain(
      'src/modules/football/analyst.ts → src/modules/pronostics/analyst.ts (type-only)',
    );
  });

  it('catches a loop through three modules that no file circle shows', () => {
    const loops = moduleLoops(
      cruised({
        'src/modules/pronostics/service.ts': ['type src/modules/fixtures/service.ts'],
        'src/modules/fixtures/service.ts': ['src/modules/football/odds-columns.ts'],
        'src/modules/football/analyst.ts': ['type src/modules/pronostics/analyst.ts'],
        'src/modules/track-record/service.ts': ['type src/modules/fixtures/service.ts'],
      }),
    );
    expect(loops).toHaveLength(1);
    expect(loops[0]!.circle).toEqual(['fixtures', 'football', 'pronostics', 'fixtures']);
    expect(loops[0]!.arrows.map((arrow) => `${arrow.from}>${arrow.to}`)).toEqual([
      'fixtures>football',
      'football>pronostics',
      'pronostics>fixtures',
    ]);
  });

  it('takes a capability as one node: a loop with a module outside it counts, one inside does not', () => {
    const inside = cruised({
      'src/money/cash-out/steps.ts': ['src/money/ledger/ledger.ts'],
      'src/money/ledger/ledger.ts': ['type src/money/cash-out/steps.ts'],
      'src/modules/affiliation/service.ts': ['type src/money/index.ts'],
    });
    expect(moduleLoops(inside)).toEqual([]);
    const across = cruised({
      'src/money/checkout/steps.ts': ['type src/modules/affiliation/commission.ts'],
      'src/modules/affiliation/service.ts': ['type src/money/index.ts'],
    });
    expect(moduleLoops(across).map((loop) => loop.circle)).toEqual([['affiliation', 'money', 'affiliation']]);
  });

  it('finds nothing when every arrow points one way', () => {
    const loops = moduleLoops(
      cruised({
        'src/modules/pronostics/service.ts': ['type src/modules/fixtures/service.ts', 'src/lib/time.ts'],
        'src/modules/fixtures/service.ts': ['src/modules/football/odds-columns.ts'],
        'src/modules/football/analyst.ts': ['type src/types/analyst.ts', 'src/modules/football/service.ts'],
        'src/modules/football/service.ts': ['type src/modules/football/analyst.ts'],
        'src/runtime/analysis-worker.ts': ['type src/modules/pronostics/analysis-jobs.ts'],
        'src/types/analyst.ts': [],
      }),
    );
    expect(loops).toEqual([]);
  });

  it('finds no loop in src/ today', async () => {
    const loops = moduleLoops(await cruiseSources());
    expect(loops.map(describeLoop)).toEqual([]);
  });
});
