// An answer whose one array holds items that are already JSON text (the pronostics list's rows,
// whose analyses are stored as jsonb and read as text): the route's own schema serializer writes
// the answer with that array empty, and the texts take the empty array's place. Nothing is parsed
// and serialized again; everything else in the answer goes through the schema as usual.
import type { FastifyReply } from 'fastify';

/**
 * Makes `reply` serialize `answer` (whose `data[key]` is an empty array) with `items` in that
 * array. The schema writes a key as `"key":`, and a quote inside any string it writes is escaped,
 * so the first `"key":[]` is the array's own place as long as nothing before it in the answer
 * has that key (the envelope's `user` and `message` come first; pass a key they do not have).
 */
export function spliceArray<T>(reply: FastifyReply, answer: T, key: string, items: readonly string[]): T {
  const serialize = reply.getSerializationFunction(String(reply.statusCode));
  if (!serialize) throw new Error(`no response schema for ${reply.statusCode}`);
  const empty = `"${key}":[]`;
  reply.type('application/json; charset=utf-8').serializer((payload: unknown) => {
    const text = serialize(payload as Record<string, unknown>);
    const at = text.indexOf(empty);
    if (at < 0) throw new Error(`the answer has no empty "${key}" array`);
    return `${text.slice(0, at)}"${key}":[${items.join(',')}]${text.slice(at + empty.length)}`;
  });
  return answer;
}
