// nginx's own errors, answered by deploy/nginx/pronostics.conf in the service's envelope with a
// French message: a body past client_max_body_size (413), an api that does not answer in time
// (504, the read timeout shortened for the test) and no api at all (502). No service runs here: the
// upstream is a socket that accepts and never answers, then is closed.
import { mkdtempSync, rmSync } from 'node:fs';
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

  it('plain HTTP only redirects to HTTPS', async () => {
    const answer = await fetch(`http://127.0.0.1:${httpPort}/api/user/pronostics?page=2`, {
      redirect: 'manual',
    });
    expect(answer.status).toBe(308);
    expect(answer.headers.get('location')).toBe('https://127.0.0.1/api/user/pronostics?page=2');
    expect(sockets.size).toBe(0);
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
