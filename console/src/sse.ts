// The pure pieces of the live stream's client (./live.ts): a text/event-stream parser fed chunk by
// chunk, and the reconnection delay. No DOM, no API: tested directly (test/admin-console/sse.test.ts).

/** A message of the stream: its `id:` (if any) and its `data:` lines joined. */
export interface SseMessage {
  id: string | undefined;
  data: string;
}

/**
 * An incremental text/event-stream parser (the WHATWG format: `field: value` lines, a blank line
 * ends a message, `:` starts a comment such as the heartbeat). Feed it chunks as they come; a
 * message split across chunks is held until its blank line arrives.
 */
export function sseParser(onMessage: (message: SseMessage) => void): (chunk: string) => void {
  let buffer = '';
  let id: string | undefined;
  let data: string[] = [];
  return (chunk) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n'); end >= 0; end = buffer.indexOf('\n')) {
      const line = buffer.slice(0, end).replace(/\r$/, '');
      buffer = buffer.slice(end + 1);
      if (line === '') {
        if (data.length > 0) onMessage({ id, data: data.join('\n') });
        id = undefined;
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
  };
}

/** The next wait before reconnecting: doubling from 1 s to 30 s, give or take a fifth. */
export function backoff(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
  return Math.round(base * (0.8 + 0.4 * random()));
}
