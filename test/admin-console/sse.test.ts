// The live stream's client pieces, as pure functions: the text/event-stream parser (messages split
// across chunks, comments and heartbeats skipped, CRLF, multi-line data, id kept with its message)
// and the reconnection delay (doubling from 1 s to 30 s, with a fifth of jitter either way).
import { describe, expect, it } from 'vitest';
import { backoff, type SseMessage, sseParser } from '../../console/src/sse.js';

const parse = (chunks: string[]) => {
  const messages: SseMessage[] = [];
  const feed = sseParser((message) => messages.push(message));
  for (const chunk of chunks) feed(chunk);
  return messages;
};

describe('the event-stream parser', () => {
  it('reads the service’s messages, skipping the connection comment and heartbeats', () => {
    expect(
      parse([
        ': connected\n\n',
        'id: 7\ndata: {"id":7,"type":"flag.raised"}\n\n',
        ': ping\n\n',
        'data: {"type":"stream.reset"}\n\n',
      ]),
    ).toEqual([
      { id: '7', data: '{"id":7,"type":"flag.raised"}' },
      { id: undefined, data: '{"type":"stream.reset"}' },
    ]);
  });

  it('holds a message split across chunks until its blank line, in any split', () => {
    const text = 'id: 12\ndata: {"id":12}\n\nid: 13\ndata: {"id":13}\n\n';
    for (let cut = 1; cut < text.length; cut += 1) {
      expect(parse([text.slice(0, cut), text.slice(cut)]), `cut at ${cut}`).toEqual([
        { id: '12', data: '{"id":12}' },
        { id: '13', data: '{"id":13}' },
      ]);
    }
    expect(parse(['id: 14\ndata: {"id":14}\n'])).toEqual([]);
  });

  it('takes CRLF lines, joins data lines, and reads a field without a space or a value', () => {
    expect(parse(['id:3\r\ndata:a\r\ndata: b\r\n\r\n', 'data\n\n'])).toEqual([
      { id: '3', data: 'a\nb' },
      { id: undefined, data: '' },
    ]);
  });
});

describe('the reconnection delay', () => {
  it('doubles from 1 s up to 30 s', () => {
    const middle = () => 0.5;
    expect([0, 1, 2, 3, 4, 5, 6, 20].map((attempt) => backoff(attempt, middle))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('spreads reconnections by a fifth either way, so clients do not come back together', () => {
    expect(backoff(0, () => 0)).toBe(800);
    expect(backoff(0, () => 1)).toBe(1200);
    expect(backoff(10, () => 1)).toBe(36_000);
  });
});
