// The request's language, chosen once before any other hook (rate limits and authentication answer
// in it too): `Accept-Language` resolved by src/lib/locale.ts, French when it resolves to nothing.
// Everything after this hook, handler and error handler included, runs inside the language's scope.
import type { FastifyInstance } from 'fastify';
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

async function localePlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('locale', DEFAULT_LOCALE);
  app.decorateRequest('askedLocale', undefined);
  app.addHook('onRequest', (request, _reply, done) => {
    const asked = negotiateLocale(request.headers['accept-language']);
    request.askedLocale = asked;
    request.locale = asked ?? DEFAULT_LOCALE;
    inLocale(request.locale, done);
  });
}

export default fp(localePlugin, { name: 'locale' });
