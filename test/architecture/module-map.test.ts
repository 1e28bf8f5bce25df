// docs/module-map.md is in step with src/: the committed file must be exactly what
// `npm run docs:module-map` writes now. An import added or removed between areas without
// regenerating the map fails here, naming the command to run. The map is one diagram per area,
// found from the files (a new module folder gets its diagram without a change here).
import { readFile } from 'node:fs/promises';
import type { ICruiseResult } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import {
  areaOf,
  generateModuleMap,
  MODULE_MAP_COMMAND,
  MODULE_MAP_FILE,
  renderModuleMap,
  sectionOf,
  TOP_LEVEL,
} from '../../scripts/architecture/map.js';

/** A cruise result of a few files: `[source, [resolved, type-only?][]]`. */
function cruiseOf(files: [string, [string, boolean?][]][]): ICruiseResult {
  return {
    modules: files.map(([source, dependencies]) => ({
      source,
      dependencies: dependencies.map(([resolved, typeOnly]) => ({
        resolved,
        dependencyTypes: typeOnly ? ['type-only', 'import'] : ['import'],
      })),
    })),
  } as unknown as ICruiseResult;
}

/** The lines of one `## <name>` section of a rendered map. */
function sectionText(map: string, name: string): string {
  const start = map.indexOf(`## ${name}\n`);
  if (start < 0) return '';
  const next = map.indexOf('\n## ', start + 1);
  return map.slice(start, next < 0 ? undefined : next);
}

describe('the module map', () => {
  it('collapses files to their areas', () => {
    expect(areaOf('src/modules/users/service.ts')).toBe('modules/users');
    expect(areaOf('src/providers/payments/notchpay.ts')).toBe('providers/payments');
    expect(areaOf('src/providers/http-answers.ts')).toBe('providers/http-answers.ts');
    expect(areaOf('src/db/schema/users.ts')).toBe('db');
    expect(areaOf('src/runtime/analysis-worker.ts')).toBe('runtime');
    expect(areaOf('src/config.ts')).toBe('config.ts');
    expect(areaOf('src/services.ts')).toBe('services.ts');
  });

  it('draws one diagram per module folder, per other folder, and one for the top-level files', () => {
    expect(sectionOf('src/modules/withdrawals/service.ts')).toBe('modules/withdrawals');
    expect(sectionOf('src/providers/payments/notchpay.ts')).toBe('providers');
    expect(sectionOf('src/providers/http-answers.ts')).toBe('providers');
    expect(sectionOf('src/runtime/analysis-worker.ts')).toBe('runtime');
    expect(sectionOf('src/app.ts')).toBe(TOP_LEVEL);
  });

  it('renders each area with its files, the arrows leaving and entering it, none to lib, db or schemas', () => {
    const map = renderModuleMap(
      cruiseOf([
        ['src/app.ts', [['src/modules/withdrawals/routes.ts']]],
        [
          'src/modules/withdrawals/routes.ts',
          [
            ['src/modules/withdrawals/service.ts'],
            ['src/plugins/auth.ts'],
            ['src/lib/envelope.ts'],
            ['src/schemas/common.ts'],
          ],
        ],
        [
          'src/modules/withdrawals/service.ts',
          [['src/db/client.ts'], ['src/modules/wallet/ledger.ts', true], ['node_modules/pg/index.js']],
        ],
        ['src/modules/wallet/ledger.ts', [['src/lib/money.ts']]],
        ['src/plugins/auth.ts', [['src/config.ts']]],
        ['src/config.ts', []],
        ['src/lib/envelope.ts', []],
        ['src/lib/money.ts', []],
        ['src/db/client.ts', [['src/config.ts']]],
        ['src/schemas/common.ts', []],
      ]),
    );
    const headings = map.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual([
      '## modules/wallet',
      '## modules/withdrawals',
      '## plugins',
      `## ${TOP_LEVEL}`,
    ]);

    const withdrawals = sectionText(map, 'modules/withdrawals');
    expect(withdrawals).toContain('f_modules_withdrawals_routes_ts["routes.ts"]');
    expect(withdrawals).toContain('f_modules_withdrawals_routes_ts --> f_modules_withdrawals_service_ts');
    expect(withdrawals).toContain('f_modules_withdrawals_routes_ts --> a_plugins');
    expect(withdrawals).toContain('f_modules_withdrawals_service_ts -.-> a_modules_wallet');
    expect(withdrawals).toContain('a_app_ts --> f_modules_withdrawals_routes_ts');
    expect(map).not.toMatch(/(-->|-\.->) a_(lib|db|schemas)\b/);
    expect(map).toContain('| modules/withdrawals | 2 | `modules/wallet`, `plugins` | `app.ts` |');
    // An import from db into another area is still drawn in that area's diagram.
    expect(sectionText(map, TOP_LEVEL)).toContain('a_db --> f_config_ts');
  });

  it('is committed as the command generates it from today’s src', async () => {
    const committed = await readFile(MODULE_MAP_FILE, 'utf8').catch(() => '');
    const generated = await generateModuleMap();
    expect(generated).toContain('```mermaid');
    expect(generated).toContain('## modules/pronostics');
    if (committed !== generated) {
      expect.fail(`docs/module-map.md is out of date with src/: run \`${MODULE_MAP_COMMAND}\``);
    }
  });
});
