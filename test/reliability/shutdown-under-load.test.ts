// SIGTERM while clients are creating and listing pronostics: every request the server accepted is
// answered (no connection cut mid-request, no 500), every 201 it gave is still there after a
// restart, and the restarted worker leaves no pronostic stuck in `processing`.
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp, nextPhone, postgresUrlOf, type TestApp, usingPostgres } from '../helpers.js';

const CLIENTS = 12;
const WELCOME_CREDITS = 400;

interface Server {
  child: ChildProcessWithoutNullStreams;
  url: string;
  exited: Promise<number | null>;
  /** Everything the process wrote so far (pino's JSON lines). */
  output(): string;
}

function startServer(env: NodeJS.ProcessEnv): Promise<Server> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env, stdio: 'pipe' });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve({ child, url: match[1], exited, output: () => output });
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
}

/** What became of one request: an answer, or a network error before or during it. */
type Outcome = { status: number; body: string; createdId?: number } | { error: string };

describe('graceful shutdown under load', () => {
  it('SIGTERM drops no accepted request, loses no 201, and leaves no pronostic stuck', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pronostics-shutdown-'));
    // On PostgreSQL the server gets a database copy of its own, dropped with this test app.
    let holder: TestApp | undefined;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'info',
      APP_ENV: 'development',
      RATE_LIMIT: 'off',
      WELCOME_CREDITS: String(WELCOME_CREDITS),
      PAYMENTS_DRIVER: 'sandbox',
    };
    if (usingPostgres()) {
      holder = await createTestApp();
      env.DATABASE_URL = await postgresUrlOf(holder);
    } else {
      delete env.DATABASE_URL;
    }
    try {
      const first = await startServer(env);
      const tokens: string[] = [];
      for (let i = 0; i < CLIENTS; i++) tokens.push(await signInOver(first.url, dataDir));

      const outcomes: Outcome[] = [];
      let stop = false;
      const clients = tokens.map(async (token, index) => {
        while (!stop) {
          const create = index % 3 !== 0;
          outcomes.push(
            await send(
              first.url,
              token,
              create ? 'POST' : 'GET',
              create ? '/api/user/pronostic/create' : '/api/user/pronostics',
            ),
          );
          if ('error' in (outcomes.at(-1) as Outcome)) break;
        }
      });
      // SIGTERM lands under load: once a few creates have been answered (not after a fixed delay,
      // which a loaded machine may spend before the first answer), while every client still sends.
      const created = () => outcomes.filter((o) => 'status' in o && o.status === 201).length;
      for (let waited = 0; created() <= 5 && waited < 30_000; waited += 100) {
        await new Promise((r) => setTimeout(r, 100));
      }
      await new Promise((r) => setTimeout(r, 300));
      first.child.kill('SIGTERM');
      expect(await first.exited).toBe(0);
      stop = true;
      await Promise.all(clients);

      const answered = outcomes.filter((o): o is Extract<Outcome, { status: number }> => 'status' in o);
      const failures = outcomes.filter((o): o is { error: string } => 'error' in o);
      expect(answered.filter((o) => o.status === 201).length).toBeGreaterThan(5);
      // Every answer, during the close too, is a real one: no 5xx (nor Fastify's bare 503 on a
      // kept-alive connection), always the envelope.
      for (const o of answered) {
        expect(o.status, o.body).toBeLessThan(500);
        expect(JSON.parse(o.body)).toHaveProperty('message');
      }
      // Network errors only: refused at connect, or a kept-alive socket the server closed as idle.
      // Whether such a request was taken anyway is what the count below decides.
      for (const f of failures) expect(f.error).toMatch(/ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET/);
      // Nor did the close fail anything in the background (a wake-up on an ended pool, a query
      // after the database closed): no warning or error in the server's log once it was closing.
      const log = first.output().split('\n');
      const closingAt = log.findIndex((line) => /"msg":"closing"/.test(line));
      expect(closingAt).toBeGreaterThan(-1);
      const complaints = log.slice(closingAt).filter((line) => /"level":(40|50|60)/.test(line));
      expect(complaints).toEqual([]);

      const second = await startServer(env);
      try {
        const created = answered.filter((o) => o.createdId !== undefined).map((o) => o.createdId as number);
        const seen = new Map<number, string>();
        const deadline = Date.now() + 60_000;
        // The restarted worker finishes every analysis (an expired lease is claimed again).
        for (;;) {
          seen.clear();
          for (const token of tokens) {
            for (let page = 1; ; page++) {
              const list = await fetch(`${second.url}/api/user/pronostics?per_page=50&page=${page}`, {
                headers: { authorization: `Bearer ${token}` },
              });
              const body = (await list.json()) as {
                data: { pronostics: { id: number; status: string }[]; meta: { has_more: boolean } };
              };
              for (const p of body.data.pronostics) seen.set(p.id, p.status);
              if (!body.data.meta.has_more) break;
            }
          }
          if (![...seen.values()].includes('processing') || Date.now() > deadline) break;
          await new Promise((r) => setTimeout(r, 500));
        }
        for (const id of created) expect(seen.has(id), `pronostic ${id} answered 201 but is gone`).toBe(true);
        // And nothing was created that its client never heard of: no accepted request was dropped.
        expect(seen.size).toBe(created.length);
        expect([...seen.values()].filter((s) => s === 'processing')).toEqual([]);
      } finally {
        second.child.kill('SIGTERM');
        await second.exited;
      }
    } finally {
      await holder?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});

async function signInOver(url: string, dataDir: string): Promise<string> {
  const phone = nextPhone();
  const generated = await fetch(`${url}/api/otp/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone, country: 'CM', method: 'sms' }),
  });
  expect(generated.status).toBe(200);
  const line = readFileSync(join(dataDir, 'outbox.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { to: string; text: string })
    .filter((l) => l.to === phone)
    .at(-1);
  const code = /\b(\d{4,8})\b/.exec(line?.text ?? '')?.[1];
  const verified = await fetch(`${url}/api/otp/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone, code }),
  });
  expect(verified.status).toBe(200);
  return ((await verified.json()) as { data: { token: string } }).data.token;
}

async function send(url: string, token: string, method: 'GET' | 'POST', path: string): Promise<Outcome> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  let body: string | undefined;
  if (method === 'POST') {
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = randomUUID();
    body = JSON.stringify({ type_id: 1, teams_details: { home: 'Coton Sport', away: 'Canon Yaoundé' } });
  }
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, { method, headers, body });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { error: cause?.code ?? String(error) };
  }
  const text = await response.text();
  const createdId =
    response.status === 201
      ? (JSON.parse(text) as { data: { pronostic: { id: number } } }).data.pronostic.id
      : undefined;
  return { status: response.status, body: text, ...(createdId === undefined ? {} : { createdId }) };
}
