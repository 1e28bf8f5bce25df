// nginx's own errors, answered by deploy/nginx/pronostics.conf in the service's envelope with a
// French message: a body past client_max_body_size (413), an api that does not answer in time
// (504, the read timeout shortened for the test) and no api at all (502). No service runs here: the
// upstream is a socket that accepts and never answers, then is closed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/lib/messages.js';
import {
  type Answer,
  freePort,
  type RunningNginx,
  renderConfig,
  request,
  selfSignedCertificate,
  skipReason,
  startNginx,
} from './nginx.js';

const skip = skipReason();

function expectEnvelope(answer: Answer, status: number, message: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(answer.headers['x-request-id']).toEqual(expect.any(String));
  expect(JSON.parse(answer.body)).toEqual({ user: null, message, data: [], errors: [] });
}

describe.skipIf(skip !== undefined)(`nginx's own errors${skip ? ` (skipped: ${skip})` : ''}`, () => {
  let dir: string;
  let nginx: RunningNginx | undefined;
  let silent: Server;
  const sockets = new Set<Socket>();
  let port: number;
  let httpPort: number;
  let ca: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pronostics-nginx-errors-'));
    silent = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const upstream = (silent.address() as { port: number }).port;
    const tls = selfSignedCertificate(dir);
    ca = tls.pem;
    port = await freePort();
    httpPort = await freePort();
    const site = renderConfig({
      upstreams: [upstream],
      httpPort,
      httpsPort: port,
      certificate: tls.certificate,
      key: tls.key,
      accessLog: join(dir, 'logs', 'site-access.log'),
      replace: [['proxy_read_timeout 60s;', 'proxy_read_timeout 1s;']],
    });
    nginx = await startNginx(dir, site, port);
  });

  afterAll(async () => {
    await nginx?.stop();
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent?.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('plain HTTP only redirects to HTTPS, on the configured name whatever Host the request claims', async () => {
    const answer = await new Promise<{ status: number; location: string | undefined }>((resolve, reject) => {
      http
        .get(
          {
            host: '127.0.0.1',
            port: httpPort,
            path: '/api/user/pronostics?page=2',
            headers: { host: 'attacker.example' },
          },
          (response) => {
            response.resume();
            resolve({ status: response.statusCode ?? 0, location: response.headers.location });
          },
        )
        .on('error', reject);
    });
    expect(answer.status).toBe(308);
    expect(answer.location).toBe('https://api.example.com/api/user/pronostics?page=2');
    expect(sockets.size).toBe(0);
  });

  it('names no nginx version, and logs paths without their query string', async () => {
    const answer = await request(port, ca, {
      method: 'POST',
      path: '/api/otp/generate?phone=237690000001&search=secret&stream_key=k3y',
      headers: { 'content-type': 'application/json', 'content-length': String(9 * 1024 * 1024) },
      body: '{',
    });
    expect(answer.status).toBe(413);
    expect(answer.headers.server).toBe('nginx');
    // nginx writes the line once the answer is sent; a moment for it to land.
    const logged = async () => {
      for (let waited = 0; waited < 2000; waited += 50) {
        const text = readFileSync(join(dir, 'logs', 'site-access.log'), 'utf8');
        if (text.includes('/api/otp/generate')) return text;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return readFileSync(join(dir, 'logs', 'site-access.log'), 'utf8');
    };
    const text = await logged();
    expect(text).toContain('"POST /api/otp/generate HTTP/1.1" 413');
    expect(text).not.toMatch(/237690000001|secret|k3y|\?/);
  });

  it('a body past client_max_body_size: 413 in the envelope, before any byte reaches the api', async () => {
    const answer = await request(port, ca, {
      method: 'POST',
      path: '/api/user/support/ticket',
      headers: { 'content-type': 'application/json', 'content-length': String(9 * 1024 * 1024) },
      body: '{',
    });
    expectEnvelope(answer, 413, messages.payloadTooLarge);
    expect(sockets.size).toBe(0);
  });

  it('an api that does not answer in time: 504 in the envelope', async () => {
    const answer = await request(port, ca, { path: '/api/', headers: { 'x-request-id': 'deploy-504' } });
    expectEnvelope(answer, 504, 'Le service n’a pas répondu à temps. Réessayez plus tard.');
    expect(answer.headers['x-request-id']).toBe('deploy-504');
  });

  it('no api to answer: 502 in the envelope', async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    const answer = await request(port, ca, { path: '/api/' });
    expectEnvelope(answer, 502, messages.serviceUnavailable);
  });
});
