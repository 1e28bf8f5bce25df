// The README's quick-start, as a user runs it: `npm start` on embedded PGlite, then a CLI command
// on the same DATA_DIR while the service runs. The command goes through the service's database
// (its local socket), so the service sees the effect at once and keeps it across a restart; a
// second service on the same data folder refuses with one line and never writes.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { usingPostgres } from '../helpers.js';

const PHONE = '+237670000001';

let dataDir: string;
let running: Service[] = [];

function envFor(dir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dir,
    PORT: '0',
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'info',
    APP_ENV: 'development',
  };
  delete env.DATABASE_URL;
  return env;
}

interface Service {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** The base URL once listening; rejects with the output when the process exits first. */
  listening: Promise<string>;
  exited: Promise<number | null>;
  output(): string;
}

function startService(): Service {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: envFor(dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    void exited.then((code) => reject(new Error(`exited ${code}: ${output}`)));
  });
  // A rejection nobody awaits (a test that expects the exit) must not fail the run.
  listening.catch(() => {});
  const service = { child, listening, exited, output: () => output };
  running.push(service);
  return service;
}

async function stop(service: Service): Promise<number | null> {
  service.child.kill('SIGTERM');
  return service.exited;
}

/** `npm run cli -- …` as a child process on the same DATA_DIR. */
function cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    env: envFor(dataDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

async function post(url: string, body: unknown, token?: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
  });
}

/** Signs in through the API with the code the `log` driver wrote to DATA_DIR/outbox.jsonl. */
async function signIn(base: string, phone: string): Promise<string> {
  const generated = await post(`${base}/api/otp/generate`, { phone, country: 'CM', method: 'sms' });
  expect(generated.status).toBe(200);
  const lines = readFileSync(join(dataDir, 'outbox.jsonl'), 'utf8').trim().split('\n');
  const sent = lines
    .map((line) => JSON.parse(line) as { to: string; text: string })
    .filter((m) => m.to === phone);
  const code = /\b(\d{4,8})\b/.exec(sent.at(-1)?.text ?? '')?.[1];
  expect(code).toBeDefined();
  const verified = await post(`${base}/api/otp/verify`, { phone, code });
  expect(verified.status).toBe(200);
  return ((await verified.json()) as { data: { token: string } }).data.token;
}

function createPronostic(base: string, token: string): Promise<Response> {
  return post(
    `${base}/api/user/pronostic/create`,
    { type_id: 1, teams_details: { home: 'Canon Yaoundé', away: 'Coton Sport' } },
    token,
  );
}

// Embedded PGlite is what these are about; under TEST_DATABASE_URL the service runs on PostgreSQL.
describe.skipIf(usingPostgres())('CLI commands beside a running embedded service', () => {
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'pronostics-cli-'));
    running = [];
  });
  afterEach(async () => {
    for (const service of running) if (service.child.exitCode === null) await stop(service);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('credits:grant reaches the running service, and the grant survives a restart', async () => {
    const first = startService();
    const base = await first.listening;
    const token = await signIn(base, PHONE);
    expect((await createPronostic(base, token)).status).toBe(402);

    const granted = await cli('credits:grant', PHONE, '10', 'Crédits de test');
    expect(granted.stderr).not.toMatch(/Error/);
    expect(granted.code).toBe(0);
    expect(granted.stdout).toMatch(/now has 10 credits/);

    // The running service sees the grant at once.
    expect((await createPronostic(base, token)).status).toBe(201);
    expect(await stop(first)).toBe(0);

    const second = startService();
    const again = await second.listening;
    // Still there after a restart: the second pronostic is paid from the same grant.
    expect((await createPronostic(again, token)).status).toBe(201);
    expect(await stop(second)).toBe(0);

    // With no service running, the command opens the files itself and sees the same balance.
    const after = await cli('credits:grant', PHONE, '1', 'Crédits de test');
    expect(after.code).toBe(0);
    // 10 granted, two 1-credit pronostics, 1 more.
    expect(after.stdout).toMatch(/now has 9 credits/);
  }, 300_000);

  it('a second service on the same DATA_DIR refuses with one clear line, and the first keeps serving', async () => {
    const first = startService();
    const base = await first.listening;

    const second = startService();
    expect(await second.exited).toBe(1);
    const lines = second.output().trim().split('\n');
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^Cannot start: .*pglite is already in use by process ${first.child.pid} \\(a running service\\)`,
      ),
    );
    expect(second.output()).not.toMatch(/Server listening/);

    const health = await fetch(`${base}/api/`);
    expect(health.status).toBe(200);
    const token = await signIn(base, PHONE);
    expect((await createPronostic(base, token)).status).toBe(402);
  }, 300_000);
});
