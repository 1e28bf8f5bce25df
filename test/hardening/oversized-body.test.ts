// An oversized body over a real socket, sent by a client that writes the whole body (slowly) and
// only then reads: it must receive its 413 in the envelope. A server that answers and closes while
// the client is still sending resets the connection, and the reset can discard the answer; the
// service drains the rest of the body (up to 1 MiB, for a bounded time) before it closes.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ config: { bodyLimitBytes: 64 * 1024 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(() => t.close());

/** Writes the request in 16 KiB pieces, waiting for each write; reads the answer only afterwards. */
async function sendThenRead(
  head: string,
  pieces: Buffer[],
): Promise<{ answer: string; writeError: string | null }> {
  const socket = connect(port, '127.0.0.1');
  socket.pause();
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  let writeError: string | null = null;
  socket.on('error', (error) => {
    writeError ??= error.message;
  });
  const write = (data: string | Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) return resolve();
      socket.write(data, (error) => {
        if (error) writeError ??= error.message;
        resolve();
      });
    });
  await write(head);
  for (const piece of pieces) {
    await write(piece);
    await new Promise((resolve) => setImmediate(resolve));
  }
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve) => {
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('end', resolve);
    socket.once('close', resolve);
    socket.resume();
  });
  return { answer: Buffer.concat(chunks).toString('utf8'), writeError };
}

function expect413(answer: string) {
  expect(answer.startsWith('HTTP/1.1 413'), answer.slice(0, 200)).toBe(true);
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
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
    const { answer, writeError } = await sendThenRead(
      head,
      Array.from({ length: 25 }, () => piece),
    );
    expect(writeError).toBeNull();
    expect413(answer);
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
    const { answer, writeError } = await sendThenRead(head, [
      ...Array.from({ length: 56 }, () => chunk),
      Buffer.from('0\r\n\r\n'),
    ]);
    expect(writeError).toBeNull();
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
          head,
          Array.from({ length: 20 }, () => piece),
        ),
      ),
    );
    for (const { answer, writeError } of results) {
      expect(writeError).toBeNull();
      expect413(answer);
    }
  });
});
