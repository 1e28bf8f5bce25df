// The typed client (clients/typescript/) is in step with the live OpenAPI document: the committed
// openapi.json and schema.d.ts must be exactly what `npm run client:generate` writes now. A route or
// schema changed without regenerating the client fails here, naming the command to run.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_DIR,
  type ClientFiles,
  clientFiles,
  GENERATE_COMMAND,
} from '../../scripts/client/generate.js';
import { createTestApp, type TestApp } from '../helpers.js';

describe('the typed client', () => {
  let t: TestApp;
  let live: ClientFiles;
  beforeAll(async () => {
    t = await createTestApp();
    live = await clientFiles(t.app);
  });
  afterAll(() => t?.close());

  for (const name of ['openapi.json', 'schema.d.ts'] as const) {
    it(`has a committed ${name} equal to the live document's`, async () => {
      const committed = await readFile(join(CLIENT_DIR, name), 'utf8').catch(() => '');
      if (committed !== live[name]) {
        expect.fail(`clients/typescript/${name} is out of date with the routes: run \`${GENERATE_COMMAND}\``);
      }
    });
  }

  it('types every path of the live document', () => {
    const document = JSON.parse(live['openapi.json']) as { paths: Record<string, unknown> };
    const paths = Object.keys(document.paths);
    expect(paths).toContain('/api/otp/verify');
    expect(paths).toContain('/api/admin/withdrawals');
    for (const path of paths) expect(live['schema.d.ts']).toContain(`"${path}": {`);
  });
});
