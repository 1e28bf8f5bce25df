// Answers holding values that are already JSON text (the pronostics list's rows, a pronostic's
// stored `teams_details` and `result`, read as text): the route's own schema serializer writes the
// answer with stand-ins in their places (an empty array, a null), and the texts take the
// stand-ins' places. Nothing is parsed and serialized again; everything else in the answer goes
// through the schema as usual.
import type { FastifyReply } from 'fastify';

/** A value written as a stand-in by the schema (`written`), to be replaced by JSON text. */
export interface SplicedValue {
  key: string;
  /** What the schema writes for the stand-in the answer carries under `key`. */
  written: string;
  /** The JSON text written in its place. */
  text: string;
}

/**
 * Makes `reply` serialize `answer` with each value's text in place of its stand-in. The schema
 * writes a key as `"key":`, and a quote inside any string it writes is escaped, so the first
 * `"key":<written>` (after the previous value's) is the value's own place as long as nothing before
 * it in the answer has that key (the envelope's `user` and `message` come first; pass keys they do
 * not have, in the order the schema writes them).
 */
export function spliceValues<T>(reply: FastifyReply, answer: T, values: readonly SplicedValue[]): T {
  const serialize = reply.getSerializationFunction(String(reply.statusCode));
  if (!serialize) throw new Error(`no response schema for ${reply.statusCode}`);
  reply.type('application/json; charset=utf-8').serializer((payload: unknown) => {
    const text = serialize(payload as Record<string, unknown>);
    const parts: string[] = [];
    let from = 0;
    for (const value of values) {
      const standIn = `"${value.key}":${value.written}`;
      const at = text.indexOf(standIn, from);
      if (at < 0) throw new Error(`the answer has no "${value.key}" written as ${value.written}`);
      parts.push(text.slice(from, at), `"${value.key}":`, value.text);
      from = at + standIn.length;
    }
    parts.push(text.slice(from));
    return parts.join('');
  });
  return answer;
}

/**
 * Makes `reply` serialize `answer` (whose `data[key]` is an empty array) with `items`, already
 * JSON texts, in that array.
 */
export function spliceArray<T>(reply: FastifyReply, answer: T, key: string, items: readonly string[]): T {
  return spliceValues(reply, answer, [{ key, written: '[]', text: `[${items.join(',')}]` }]);
}
