// `npm start` gives Node the options production runs the service with, and the benches start the
// service with the same ones (read from package.json), so what they measure is what runs.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startScriptNodeOptions } from '../../bench/service-process.js';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  scripts: { start: string };
};

describe('the service’s Node options', () => {
  it('are the words between `node` and the entry point of a start script', () => {
    expect(startScriptNodeOptions('node dist/server.js')).toEqual([]);
    expect(startScriptNodeOptions('node --v8-pool-size=1 --enable-source-maps dist/server.js')).toEqual([
      '--v8-pool-size=1',
      '--enable-source-maps',
    ]);
    expect(() => startScriptNodeOptions('tsx src/server.ts')).toThrow(/npm start/);
  });

  it('keep one V8 helper thread: each of the default four kept its own arena of freed memory', () => {
    // docs/performance.md, issue 28 round four: ~60 MB of resident memory on PGlite.
    expect(startScriptNodeOptions(manifest.scripts.start)).toContain('--v8-pool-size=1');
  });

  it('cap the young generation at 8 MB semi-spaces: V8 grew it to 16 MB ones under load', () => {
    // docs/performance.md, issue 28 round five: PGlite's peak 297-301 → 256-261 MB.
    expect(startScriptNodeOptions(manifest.scripts.start)).toContain('--max-semi-space-size=8');
  });
});
