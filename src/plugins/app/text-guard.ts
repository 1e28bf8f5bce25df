// Text PostgreSQL cannot store (a NUL character, or half of a UTF-16 surrogate pair, which JSON can
// carry as "\ud800") is refused with a 422 naming the field, for every route in one place, before
// a handler can pass it to the database, where it was a 500. Checked: the body (values and keys, at
// any depth), the query string, path parameters and the headers the app keeps as data.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { type FieldErrors, ValidationFailed } from '../../lib/errors.js';
import { validationMessages } from '../../lib/messages.js';

/** Headers whose value is stored (the idempotency key is a column), named as the spec writes them. */
const DATA_HEADERS = [['idempotency-key', 'Idempotency-Key']] as const;

/** Enough fields for the client to see what is wrong; a body full of them does not make a huge answer. */
const MAX_REPORTED_FIELDS = 20;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** False when the text holds a NUL or a surrogate that is not part of a pair. */
export function isStorableText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0 || isLowSurrogate(code)) return false;
    if (isHighSurrogate(code)) {
      if (!isLowSurrogate(text.charCodeAt(i + 1))) return false;
      i++;
    }
  }
  return true;
}

/** A bad key named in the answer, its offending characters written as `\uXXXX`. */
function printable(key: string): string {
  let out = '';
  for (let i = 0; i < key.length; i++) {
    const code = key.charCodeAt(i);
    const paired = isHighSurrogate(code) && isLowSurrogate(key.charCodeAt(i + 1));
    if (paired) {
      out += key.slice(i, i + 2);
      i++;
    } else if (code === 0 || isHighSurrogate(code) || isLowSurrogate(code)) {
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    } else {
      out += key[i];
    }
  }
  return out;
}

/**
 * The fields of `value` holding unstorable text, as dot paths under `root` (`teams_details.home`);
 * `whole` names the value itself when it is a bare string. A loop, not recursion: a 64 KiB body
 * can nest thousands of levels deep.
 */
function findUnstorable(value: unknown, root: string[], whole: string, found: FieldErrors): void {
  // Breadth first, in the order the fields were sent, so `message` names the first one.
  const pending: { value: unknown; path: string[] }[] = [{ value, path: root }];
  for (let next = 0; next < pending.length && Object.keys(found).length < MAX_REPORTED_FIELDS; next++) {
    const item = pending[next] as { value: unknown; path: string[] };
    if (typeof item.value === 'string') {
      if (!isStorableText(item.value)) {
        const field = item.path.length > 0 ? item.path.join('.') : whole;
        found[field] = [validationMessages.unstorableText(field)];
      }
    } else if (Array.isArray(item.value)) {
      item.value.forEach((child, index) => {
        pending.push({ value: child, path: [...item.path, String(index)] });
      });
    } else if (item.value !== null && typeof item.value === 'object') {
      for (const [key, child] of Object.entries(item.value)) {
        const path = [...item.path, isStorableText(key) ? key : printable(key)];
        if (!isStorableText(key)) {
          const field = path.join('.');
          found[field] = [validationMessages.unstorableKey(field)];
        }
        pending.push({ value: child, path });
      }
    }
  }
}

export function unstorableFields(request: FastifyRequest): FieldErrors {
  // Without a prototype, a field named `__proto__` (`?__proto__=%00`) is a field like any other,
  // not the object's prototype: assigned on `{}` it vanished from the report, or broke its shape.
  const found: FieldErrors = Object.create(null);
  findUnstorable(request.body, [], 'body', found);
  findUnstorable(request.query, [], 'query', found);
  findUnstorable(request.params, [], 'params', found);
  for (const [header, name] of DATA_HEADERS) {
    findUnstorable(request.headers[header], [name], name, found);
  }
  return found;
}

/**
 * Whether every string in `value`, keys included, is storable: the answer for nearly every
 * request, found without building a path or a report per field (`findUnstorable` names the
 * fields once this says no). A loop, as there.
 */
export function allStorable(value: unknown): boolean {
  if (typeof value === 'string') return isStorableText(value);
  if (value === null || typeof value !== 'object') return true;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (!isStorableText(item)) return false;
    } else if (Array.isArray(item)) {
      for (const child of item) pending.push(child);
    } else if (item !== null && typeof item === 'object') {
      const record = item as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        if (!isStorableText(key)) return false;
        pending.push(record[key]);
      }
    }
  }
  return true;
}

async function textGuardPlugin(app: FastifyInstance): Promise<void> {
  // After schema validation, so a malformed path id stays a 404 and the text checked is what the
  // handler receives; app-wide, so it runs before any route's own hooks and its handler.
  app.addHook('preHandler', (request, _reply, done) => {
    if (
      allStorable(request.body) &&
      allStorable(request.query) &&
      allStorable(request.params) &&
      DATA_HEADERS.every(([header]) => allStorable(request.headers[header]))
    ) {
      done();
      return;
    }
    const found = unstorableFields(request);
    done(Object.keys(found).length > 0 ? new ValidationFailed(found) : undefined);
  });
}

export default fp(textGuardPlugin, { name: 'text-guard' });
