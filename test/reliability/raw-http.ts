// A client over a raw socket for what `inject` cannot show: it writes a request's body in pieces,
// waiting for each write, and reads the answer only once it has sent everything (a slow client on
// a mobile network), parsing one HTTP/1.1 response by its Content-Length.
import { connect } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The first write or socket error, if any (a reset while sending, for instance). */
  writeError: string | null;
}

export async function sendThenRead(port: number, head: string, pieces: Buffer[]): Promise<RawAnswer> {
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
    if (writeError) break;
    await write(piece);
    await new Promise((resolve) => setImmediate(resolve));
  }
  let received = Buffer.alloc(0);
  const answer = await new Promise<RawAnswer | null>((resolve) => {
    const tryParse = () => {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const lines = received.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(lines[0]?.split(' ')[1]);
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (received.length < end + 4 + length) return false;
      resolve({
        status,
        headers,
        body: received.subarray(end + 4, end + 4 + length).toString('utf8'),
        writeError,
      });
      return true;
    };
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      tryParse();
    });
    socket.once('close', () => {
      if (!tryParse()) resolve(null);
    });
    socket.resume();
  });
  socket.destroy();
  return answer ?? { status: 0, headers: {}, body: received.toString('utf8'), writeError };
}
