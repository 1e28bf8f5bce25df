// An oversized body over a real socket, sent by a client that writes the whole body (slowly) and
// only then reads: it must receive its 413 in the envelope. A server that answers and closes while
// the client is still sending resets the connection, and the reset can discard the answer; the
// service drains the rest of the body (up to 1 MiB, for a bounded time) before it closes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.js';
import { type RawAnswer, sendThenRead } from '../reliability/raw-http.js';

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ config: { bodyLimitBytes: 64 * 1024 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

function expect413(answer: RawAnswer) {
  expect(answer.writeError).toBeNull();
  expect(answer.status, answer.body.slice(0, 200)).toBe(413);
  const body = JSON.parse(answer.body);
  // The sign-in routes answer the envelope without `errors` (the spec's OTP shape).
  expect(body).toMatchObject({ user: null, data: [] });
  expect(typeof body.message).toBe('string');
}

const piece = Buffer.alloc(16 * 1024, 'a');

describe('413 for an oversized body reaches a client that reads only after sending', () => {
  it('with content-length (400 KB of JSON)', async () => {
    const size = 25 * piece.length;
    const head =
      'POST /api/otp/generate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${size}\r\n\r\n`;
    expect413(
      await sendThenRead(
        port,
        head,
        Array.from({ length: 25 }, () => piece),
      ),
    );
  });

  it('chunked (900 KB)', async () => {
    const chunk = Buffer.concat([
      Buffer.from(`${piece.length.toString(16)}\r\n`),
      piece,
      Buffer.from('\r\n'),
    ]);
    const head =
      'POST /api/otp/generate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      'Transfer-Encoding: chunked\r\n\r\n';
    const answer = await sendThenRead(port, head, [
      ...Array.from({ length: 56 }, () => chunk),
      Buffer.from('0\r\n\r\n'),
    ]);
    expect413(answer);
  });

  it('several at once, each gets its 413', async () => {
    const size = 20 * piece.length;
    const head =
      'POST /api/otp/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${size}\r\n\r\n`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        sendThenRead(
          port,
          head,
          Array.from({ length: 20 }, () => piece),
        ),
      ),
    );
    for (const answer of results) expect413(answer);
  });
});
