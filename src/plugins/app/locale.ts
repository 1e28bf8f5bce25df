// The request's language, chosen once before any other hook (rate limits and authentication answer
// in it too): `Accept-Language` resolved by src/lib/locale.ts, French when it resolves to nothing.
// Everything after this hook, handler and error handler included, runs inside the language's scope.
// Every envelope says which language it is written in (`Content-Language`) and that it depends on
// `Accept-Language` (`Vary`, merged with what is already there), so a cache keeps one answer per
// language; a served file (an avatar, an attachment, an asset, /metrics) is the same in every
// language and carries neither.
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_LOCALE, inLocale, type Locale, negotiateLocale } from '../../lib/locale.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The language the answer is written in. */
    locale: Locale;
    /**
     * The language the caller asked for, or undefined when `Accept-Language` named neither: only a
     * request that asked may write an account's language (DESIGN, "Languages").
     */
    askedLocale: Locale | undefined;
  }
}

/** `Vary` with `field` added once (a list already holding it, in any case, or `*` is left as is). */
export function withVary(existing: string | number | string[] | undefined, field: string): string {
  const listed = (Array.isArray(existing) ? existing.join(',') : String(existing ?? ''))
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token.length > 0);
  const wanted = field.toLowerCase();
  if (listed.some((token) => token === '*' || token.toLowerCase() === wanted)) return listed.join(', ');
  return [...listed, field].join(', ');
}

/** Marks an answer as written in `locale`, one of several the same URL has. */
export function languageHeaders(reply: FastifyReply, locale: Locale): void {
  reply.header('content-language', locale);
  // Nearly every answer has no Vary yet: the merge (a split, a scan, a join) only when one does.
  const vary = reply.getHeader('vary');
  reply.header('vary', vary === undefined ? 'Accept-Language' : withVary(vary, 'Accept-Language'));
}

/** The envelope of the spec (`{user, message, data, …}`), as a route or the error handler sends it. */
function isEnvelope(payload: unknown): boolean {
  return (
    typeof payload === 'object' &&
    payload !== null &&
    'user' in payload &&
    'message' in payload &&
    'data' in payload
  );
}

async function localePlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('locale', DEFAULT_LOCALE);
  app.decorateRequest('askedLocale', undefined);
  app.addHook('onRequest', (request, _reply, done) => {
    const asked = negotiateLocale(request.headers['accept-language']);
    request.askedLocale = asked;
    request.locale = asked ?? DEFAULT_LOCALE;
    inLocale(request.locale, done);
  });
  // Envelopes are objects until serialized; files, pages and streams are sent as bytes and never
  // reach this hook.
  app.addHook('preSerialization', (request, reply, payload, done) => {
    if (isEnvelope(payload)) languageHeaders(reply, request.locale);
    done(null, payload);
  });
}

export default fp(localePlugin, { name: 'locale' });
