// The typed client's stream reader as pure pieces, the one both web apps use: the text/event-stream
// parser (messages split across chunks at any point, comments and heartbeats skipped, CR, LF and
// CRLF lines, multi-line data, the id kept with its message) and the reconnection delay (doubling
// from its first wait to its longest, spread over its upper half).
import { describe, expect, it } from 'vitest';
import { EventStreamParser, retryDelay } from '../../clients/typescript/index.js';

const parse = (chunks: string[]) => {
  const parser = new EventStreamParser();
  return chunks.flatMap((chunk) => parser.push(chunk));
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

  it('holds a message split across chunks until its blank line, in any split and any line ending', () => {
    for (const end of ['\n', '\r\n', '\r']) {
      const text = `id: 12${end}data: {"id":12}${end}${end}id: 13${end}data: {"id":13}${end}${end}`;
      for (let cut = 1; cut < text.length; cut += 1) {
        expect(parse([text.slice(0, cut), text.slice(cut)]), `${JSON.stringify(end)} cut at ${cut}`).toEqual([
          { id: '12', data: '{"id":12}' },
          { id: '13', data: '{"id":13}' },
        ]);
      }
    }
    expect(parse(['id: 14\ndata: {"id":14}\n'])).toEqual([]);
  });

  it('joins data lines, and reads a field without a space or a value', () => {
    expect(parse(['id:3\r\ndata:a\r\ndata: b\r\n\r\n', 'data\n\n'])).toEqual([
      { id: '3', data: 'a\nb' },
      { id: undefined, data: '' },
    ]);
  });
});

describe('the reconnection delay', () => {
  const retry = { initialMs: 1000, maxMs: 30_000 };

  it('doubles from the first wait up to the longest', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((attempt) => retryDelay(attempt, retry, () => 1))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('spreads reconnections over the upper half, so clients dropped together do not come back together', () => {
    expect(retryDelay(0, retry, () => 0)).toBe(500);
    expect(retryDelay(0, retry, () => 0.5)).toBe(750);
    expect(retryDelay(10, retry, () => 0)).toBe(15_000);
  });
});
