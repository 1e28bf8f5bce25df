// DOWNLOAD_MAX_BYTES: a results or fixtures file past the cap fails its sync with one line, whether
// the server declares its length, streams it without one, or it is a local `file://` copy; a file at
// the cap is read whole.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { testConfig } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { DownloadTooLarge, downloadBytes } from '../../src/lib/download.js';
import { type LoopbackServer, serveOnLoopback } from '../fakes/http.js';
import { createTestDatabase, type TestDatabase } from '../helpers.js';

const RESULTS = [
  'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR',
  'E0,15/08/2025,20:00,Liverpool,Bournemouth,4,2,H',
]
  .join('\n')
  .padEnd(4096, '\n');

let server: LoopbackServer;
let database: TestDatabase;
const lines: string[] = [];

beforeAll(async () => {
  server = await serveOnLoopback((request, response) => {
    const size = Number(new URL(request.url ?? '/', 'http://x').searchParams.get('size') ?? '0');
    if (request.url?.startsWith('/declared')) {
      response.writeHead(200, { 'content-length': String(size) }).end('x'.repeat(size));
    } else if (request.url?.startsWith('/chunked')) {
      // No length: the body comes in 1 KiB pieces, as a server streaming a file would send it.
      response.writeHead(200);
      for (let sent = 0; sent < size; sent += 1024) response.write('y'.repeat(Math.min(1024, size - sent)));
      response.end();
    } else if (request.url === '/mmz4281/2526/E0.csv') {
      response.writeHead(200, { 'content-type': 'text/csv' }).end(RESULTS);
    } else {
      response.writeHead(404).end('not found');
    }
  });
  database = await createTestDatabase();
});
afterAll(async () => {
  await server.close();
  await database.drop();
});

async function cli(args: string[], config: ReturnType<typeof testConfig>): Promise<number> {
  lines.length = 0;
  const ctx = createCliContext(config, {
    database: database.handle,
    clock: new ManualClock('2025-10-01T12:00:00Z'),
    out: (line) => lines.push(line),
  });
  const errors: string[] = [];
  const original = console.error;
  console.error = (line: string) => errors.push(line);
  try {
    return await runCli(args, ctx);
  } finally {
    console.error = original;
    lines.push(...errors);
  }
}

describe('downloadBytes', () => {
  it('reads a file at the cap whole, declared or streamed', async () => {
    expect((await downloadBytes(`${server.url}/declared?size=3000`, { maxBytes: 3000 })).byteLength).toBe(
      3000,
    );
    expect((await downloadBytes(`${server.url}/chunked?size=3000`, { maxBytes: 3000 })).byteLength).toBe(
      3000,
    );
  });

  it('refuses a declared length past the cap before reading it', async () => {
    await expect(downloadBytes(`${server.url}/declared?size=3001`, { maxBytes: 3000 })).rejects.toThrow(
      new DownloadTooLarge(`${server.url}/declared?size=3001`, 3000).message,
    );
  });

  it('stops a body without a length once it passes the cap', async () => {
    const url = `${server.url}/chunked?size=${1024 * 1024}`;
    await expect(downloadBytes(url, { maxBytes: 4096 })).rejects.toBeInstanceOf(DownloadTooLarge);
  });
});

describe('syncs past DOWNLOAD_MAX_BYTES', () => {
  it('results:sync fails with one line naming the setting, and imports nothing', async () => {
    const base = { resultsBaseUrl: `${server.url}/mmz4281` };
    expect(
      await cli(
        ['results:sync', 'E0', '--season', '2025-26'],
        testConfig({ ...base, downloadMaxBytes: 4095 }),
      ),
    ).toBe(1);
    const failure = lines.filter((line) => line.includes('DOWNLOAD_MAX_BYTES'));
    expect(failure).toHaveLength(1);
    expect(failure[0]).not.toContain('\n');
    expect(failure[0]).toContain('E0 2025-26: failed');
    // The same file at the cap imports.
    expect(
      await cli(
        ['results:sync', 'E0', '--season', '2025-26'],
        testConfig({ ...base, downloadMaxBytes: 4096 }),
      ),
    ).toBe(0);
    expect(lines).toContain('E0 2025-26: 1 rows read, 1 new, 0 already stored, 0 skipped');
  });

  it('fixtures:sync from a local file past the cap fails with one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixtures-limit-'));
    const path = join(dir, 'fixtures.csv');
    writeFileSync(path, 'Div,Date,Time,HomeTeam,AwayTeam\n'.padEnd(2048, '\n'));
    const config = testConfig({ fixturesUrl: pathToFileURL(path).href, downloadMaxBytes: 2047 });
    expect(await cli(['fixtures:sync', 'E0'], config)).toBe(1);
    expect(lines.filter((line) => line.includes('DOWNLOAD_MAX_BYTES'))).toHaveLength(1);
  });
});
