// docs/module-map.md is in step with src/: the committed file must be exactly what
// `npm run docs:module-map` writes now. An import added or removed between areas without
// regenerating the map fails here, naming the command to run.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  areaOf,
  generateModuleMap,
  MODULE_MAP_COMMAND,
  MODULE_MAP_FILE,
} from '../../scripts/architecture/map.js';

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

  it('is committed as the command generates it from today’s src', async () => {
    const committed = await readFile(MODULE_MAP_FILE, 'utf8').catch(() => '');
    const generated = await generateModuleMap();
    expect(generated).toContain('```mermaid');
    if (committed !== generated) {
      expect.fail(`docs/module-map.md is out of date with src/: run \`${MODULE_MAP_COMMAND}\``);
    }
  });
});
