// The deployment of deploy/, run: two `api` processes (ROLE=api) and one `worker` (ROLE=worker) on a
// fresh PostgreSQL database and Redis, behind deploy/nginx/pronostics.conf (rendered with the test's
// ports and a self-signed certificate; its main file turns gzip on for every type, as Debian's does
// for some). Through nginx, over TLS: a sign-in, an event stream held by one api process that
// receives `pronostic.succeeded` for a pronostic created through the other within 2 s of its
// commit, the service's own 413 for an upload past its limit, and one request-rate counter for both
// processes (Redis), counted on the client's address that nginx forwards (TRUST_PROXY=1), whatever
// X-Forwarded-For the client sends.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages.js';
import { clientNetwork } from '../../src/lib/network.js';
import { nextPhone, usingPostgres } from '../helpers.js';
import {
  freePort,
  type RunningNginx,
  renderConfig,
  request,
  selfSignedCertificate,
  skipReason,
  startNginx,
} from './nginx.js';

const LIMIT = 40;
const redisUrl = 'redis://127.0.0.1:6379';
const skip = usingPostgres()
  ? skipReason()
  : 'runs in the PostgreSQL pass (TEST_DATABASE_URL): ROLE=api and ROLE=worker need PostgreSQL';

interface Process {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
}

function startProcess(name: string, env: NodeJS.ProcessEnv, ready: string): Promise<Process> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve({ name, child, exited, output: () => output });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`${name} exited ${code}: ${output}`)));
  });
}

/** A loopback address of its own for this run (127.0.0.0/8 is all the machine's), so its counters are. */
const loopback = () => `127.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;

interface StreamEvent {
  id: number;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
  receivedAt: number;
}

describe.skipIf(skip !== undefined)(
  `deploy/: api × 2 and worker behind nginx${skip ? ` (skipped: ${skip})` : ''}`,
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'pronostics-deploy-'));
    const dataDir = join(dir, 'data');
    const database = `pronostics_deploy_${randomBytes(6).toString('hex')}`;
    const client = loopback();
    const flooder = loopback();
    let admin: pg.Client;
    let redis: Redis;
    let nginx: RunningNginx | undefined;
    const processes: Process[] = [];
    let apis: Process[] = [];
    let port: number;
    let ca: string;
    let token: string;

    const send = (options: Parameters<typeof request>[2]) => request(port, ca, { from: client, ...options });
    /** The api process whose log holds the request `id`. */
    const servedBy = (id: string) =>
      apis.filter((api) => api.output().includes(`"reqId":"${id}"`)).map((a) => a.name);

    /** The processes' logs reach the pipe a little after their answers: wait for `ids`' lines. */
    async function logged(ids: string[]): Promise<void> {
      for (let waited = 0; waited < 5000; waited += 20) {
        if (ids.every((id) => servedBy(id).length > 0)) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    beforeAll(async () => {
      admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      const url = new URL(process.env.TEST_DATABASE_URL as string);
      url.pathname = `/${database}`;
      redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      await redis.connect().catch((error: unknown) => {
        throw new Error(`Redis is not reachable at ${redisUrl}: ${String(error)}`);
      });
      await redis.del(`pronostics-rl:${clientNetwork(client)}`, `pronostics-rl:${clientNetwork(flooder)}`);

      const [apiPort1, apiPort2] = [await freePort(), await freePort()];
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        APP_ENV: 'development',
        APP_SECRET: randomBytes(32).toString('hex'),
        DATABASE_URL: url.toString(),
        REDIS_URL: redisUrl,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        TRUST_PROXY: '1',
        RATE_LIMIT: 'on',
        RATE_LIMIT_PER_MINUTE: String(LIMIT),
        MESSAGING_DRIVER: 'log',
        PAYMENTS_DRIVER: 'sandbox',
        WELCOME_CREDITS: '10',
        LOG_LEVEL: 'info',
      };
      // All three at once, as systemd starts them: the migrations of the fresh database run once,
      // under their advisory lock.
      processes.push(
        ...(await Promise.all([
          startProcess('api-1', { ...env, ROLE: 'api', PORT: String(apiPort1) }, 'Server listening at'),
          startProcess('api-2', { ...env, ROLE: 'api', PORT: String(apiPort2) }, 'Server listening at'),
          startProcess('worker', { ...env, ROLE: 'worker' }, 'background loops started'),
        ])),
      );
      apis = processes.filter((p) => p.name.startsWith('api'));

      const tls = selfSignedCertificate(dir);
      ca = tls.pem;
      port = await freePort();
      const site = renderConfig({
        upstreams: [apiPort1, apiPort2],
        httpPort: await freePort(),
        httpsPort: port,
        certificate: tls.certificate,
        key: tls.key,
        accessLog: join(dir, 'nginx', 'logs', 'site-access.log'),
      });
      nginx = await startNginx(join(dir, 'nginx'), site, port);
    }, 180_000);

    afterAll(async () => {
      await nginx?.stop();
      for (const p of processes) p.child.kill('SIGTERM');
      await Promise.all(processes.map((p) => p.exited));
      if (redis) {
        await redis.del(`pronostics-rl:${clientNetwork(client)}`, `pronostics-rl:${clientNetwork(flooder)}`);
        redis.disconnect();
      }
      if (admin) {
        await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
        await admin.end();
      }
      rmSync(dir, { recursive: true, force: true });
    });

    it('answers the health check over TLS, with the request id it passed on', async () => {
      const answer = await send({ path: '/api/', headers: { 'x-request-id': 'deploy-health' } });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body).data.status).toBe('ok');
      expect(answer.headers['x-request-id']).toBe('deploy-health');
      await logged(['deploy-health']);
      expect(servedBy('deploy-health')).toHaveLength(1);
    });

    it('signs in with the code from the development outbox', async () => {
      const phone = nextPhone();
      const json = { 'content-type': 'application/json' };
      const generated = await send({
        method: 'POST',
        path: '/api/otp/generate',
        headers: json,
        body: JSON.stringify({ phone, country: 'CM', method: 'sms' }),
      });
      expect(generated.status, generated.body).toBe(200);
      const line = readFileSync(join(dataDir, 'outbox.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { to: string; text: string })
        .filter((l) => l.to === phone)
        .at(-1);
      const code = /\b(\d{6})\b/.exec(line?.text ?? '')?.[1];
      const verified = await send({
        method: 'POST',
        path: '/api/otp/verify',
        headers: json,
        body: JSON.stringify({ phone, code }),
      });
      expect(verified.status, verified.body).toBe(200);
      token = JSON.parse(verified.body).data.token;
    });

    it('delivers pronostic.succeeded on a stream of one api process within 2 s of its commit, created through the other', async () => {
      const streamId = `deploy-stream-${randomBytes(4).toString('hex')}`;
      const events: StreamEvent[] = [];
      // Settles on the stream's first line (`: connected`), on an answer that is not the stream as
      // sent, or after 10 s: a buffering or compressing proxy fails here, not at the test's timeout.
      let settle!: () => void;
      const opened = new Promise<void>((resolve) => {
        settle = resolve;
        setTimeout(resolve, 10_000).unref();
      });
      let raw = '';
      let connected = false;
      let status = 0;
      let headers: Record<string, string | string[] | undefined> = {};
      const stream = https.request({
        host: '127.0.0.1',
        port,
        ca,
        agent: false,
        localAddress: client,
        path: '/api/user/events',
        headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip', 'x-request-id': streamId },
      });
      stream.on('response', (res) => {
        status = res.statusCode ?? 0;
        headers = res.headers;
        if (status !== 200 || headers['content-encoding']) settle();
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const receivedAt = Date.now();
          raw += chunk;
          if (raw.includes(': connected')) {
            connected = true;
            settle();
          }
          for (;;) {
            const end = raw.indexOf('\n\n');
            if (end < 0) break;
            const message = raw.slice(0, end);
            raw = raw.slice(end + 2);
            const data = /^data: (.*)$/m.exec(message)?.[1];
            if (data) events.push({ ...(JSON.parse(data) as Omit<StreamEvent, 'receivedAt'>), receivedAt });
          }
        });
      });
      stream.on('error', () => {});
      stream.end();
      try {
        await opened;
        expect(status).toBe(200);
        expect(headers['content-type']).toMatch(/^text\/event-stream/);
        // gzip is on in the main file: the site's `gzip off` keeps the stream as it is.
        expect(headers['content-encoding']).toBeUndefined();
        expect(connected, "the stream's first line, through nginx at once").toBe(true);

        const createId = `deploy-create-${randomBytes(4).toString('hex')}`;
        const created = await send({
          method: 'POST',
          path: '/api/user/pronostic/create',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'x-request-id': createId,
          },
          body: JSON.stringify({ type_id: 1, teams_details: { home: 'Canon Yaoundé', away: 'Coton Sport' } }),
        });
        const createdAt = Date.now();
        expect(created.status, created.body).toBe(201);
        const pronosticId = JSON.parse(created.body).data.pronostic.id;

        // nginx's round robin sends the two requests to different processes: the event crosses
        // processes (the worker commits, PostgreSQL's NOTIFY wakes the stream's process).
        await logged([streamId, createId]);
        const [streamServer] = servedBy(streamId);
        const [createServer] = servedBy(createId);
        expect(streamServer).toBeDefined();
        expect(createServer).toBeDefined();
        expect(createServer).not.toBe(streamServer);

        const deadline = Date.now() + 15_000;
        let succeeded: StreamEvent | undefined;
        while (!succeeded && Date.now() < deadline) {
          succeeded = events.find((e) => e.type === 'pronostic.succeeded' && e.data.id === pronosticId);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        expect(succeeded, `events: ${JSON.stringify(events)}`).toBeDefined();
        // created_at is the worker's clock inside the transaction that commits the success: the time
        // from it to the client is at least the time from the commit.
        const committedBy = Date.parse(
          (succeeded as StreamEvent).created_at.replace(/(\.\d{3})\d*Z$/, '$1Z'),
        );
        const fromCommit = (succeeded as StreamEvent).receivedAt - committedBy;
        const fromCreate = (succeeded as StreamEvent).receivedAt - createdAt;
        process.stderr.write(
          `event latency through nginx: ${fromCommit} ms from the success's transaction, ${fromCreate} ms from the create's 201 (stream on ${streamServer}, create on ${createServer})\n`,
        );
        expect(fromCommit).toBeLessThan(2000);
      } finally {
        stream.destroy();
      }
    }, 60_000);

    it("lets the service answer its own 413 for an upload past the service's limit", async () => {
      const boundary = `----deploy${randomBytes(8).toString('hex')}`;
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        // A JPEG's first bytes (the type is read from them), then past the avatar's 2 MB.
        Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]),
        Buffer.alloc(3 * 1024 * 1024, 7),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const answer = await send({
        method: 'POST',
        path: '/api/user/profile/avatar',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        body,
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).message).toBe(messages.uploadTooLarge);
    });

    it('counts requests on one Redis counter for both processes, per forwarded client address', async () => {
      const flood = (i: number) =>
        request(port, ca, {
          from: flooder,
          path: '/api/user/pronostics',
          // A client's own X-Forwarded-For is not believed: nginx appends the address it sees.
          headers: {
            authorization: 'Bearer nope',
            'x-forwarded-for': `10.1.${i}.1`,
            'x-request-id': `deploy-rl-${i}`,
          },
        });
      for (let i = 0; i < LIMIT; i++) expect((await flood(i)).status).toBe(401);
      const limited = [await flood(LIMIT), await flood(LIMIT + 1)];
      for (const answer of limited) {
        expect(answer.status).toBe(429);
        expect(JSON.parse(answer.body).data.retry_after).toEqual(expect.any(Number));
      }
      // Both processes answered, the 429s too: one counter.
      await logged([...Array(LIMIT + 2).keys()].map((i) => `deploy-rl-${i}`));
      const served = (ids: number[]) => new Set(ids.flatMap((i) => servedBy(`deploy-rl-${i}`)));
      expect(served([...Array(LIMIT).keys()])).toEqual(new Set(['api-1', 'api-2']));
      expect(served([LIMIT, LIMIT + 1])).toEqual(new Set(['api-1', 'api-2']));
      // The main client's own counter was not touched by the flood.
      expect((await send({ path: '/api/' })).status).toBe(200);
    });
  },
);
