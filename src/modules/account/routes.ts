// The account's own routes (issue 30): the deletion's confirmation code, the deletion, the data
// export (a JSON attachment, not an envelope), and the public page the app stores link to.

import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope } from '../../lib/envelope.js';
import { messages, playTexts } from '../../lib/messages.js';
import { pageLocale, scriptLocale } from '../../lib/page-locale.js';
import { currentUser } from '../../plugins/app/auth.js';
import {
  authErrors,
  EmptyArray,
  Envelope,
  ErrorEnvelope,
  FileResponse,
  UserId,
} from '../../schemas/common.js';
import { accountDeletePage, accountDeleteScript } from './page.js';
import { DeleteAccountBody, DeletionCodeBody, SelfExclusionBody, SelfExclusionData } from './schemas.js';

const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { account } = app.services;

  app.post(
    '/api/user/account/delete/code',
    {
      schema: {
        tags: ['account'],
        summary: 'Recevoir le code confirmant la suppression de mon compte',
        description:
          'Envoyé au numéro du compte, avec les limites et budgets du code de connexion (le délai entre deux envois compte les codes de suppression seuls).',
        security: [{ bearer: [] }],
        body: DeletionCodeBody,
        response: { 200: Envelope(EmptyArray, UserId), ...authErrors },
      },
      // The body is optional: a client that sends none gets the code by SMS, as a sign-in would.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const user = currentUser(request);
      await account.sendDeletionCode(user, request.body, { ip: request.ip, log: request.log });
      return envelope({ user: { id: user.id }, message: messages.accountDeleteCodeSent });
    },
  );

  app.post(
    '/api/user/account/delete',
    {
      // Guesses of the code, per client network, as for /api/otp/verify; the per-code limits are the service's.
      config: { rateLimit: { max: 30, timeWindow: 600_000 } },
      schema: {
        tags: ['account'],
        summary: 'Supprimer définitivement mon compte',
        description:
          '400 : code faux ou expiré. 403 : dernier administrateur. 409 : paiement ou retrait en cours, transfert en examen, ou solde (XAF) restant sans forfeit_balance: true (data.reason, data.money_balance).',
        security: [{ bearer: [] }],
        body: DeleteAccountBody,
        response: {
          200: Envelope(EmptyArray, UserId),
          400: ErrorEnvelope,
          403: ErrorEnvelope,
          409: ErrorEnvelope,
          ...authErrors,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await account.deleteAccount(user, request.body, { ip: request.ip });
      return envelope({ user: { id: user.id }, message: messages.accountDeleted });
    },
  );

  app.post(
    '/api/user/account/self-exclusion/code',
    {
      schema: {
        tags: ['account'],
        summary: 'Recevoir le code confirmant une pause de jeu (auto-exclusion)',
        description: 'Envoyé au numéro du compte, avec les limites et budgets du code de suppression.',
        security: [{ bearer: [] }],
        body: DeletionCodeBody,
        response: { 200: Envelope(EmptyArray, UserId), ...authErrors },
      },
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request) => {
      const user = currentUser(request);
      await account.sendExclusionCode(user, request.body, { ip: request.ip, log: request.log });
      return envelope({ user: { id: user.id }, message: playTexts.exclusionCodeSent });
    },
  );

  app.post(
    '/api/user/account/self-exclusion',
    {
      config: { rateLimit: { max: 30, timeWindow: 600_000 } },
      schema: {
        tags: ['account'],
        summary: 'Confirmer une pause de jeu de 1 à 1825 jours (elle ne peut que s’allonger)',
        description:
          'Jusqu’à data.until : achat, nouvelle analyse et ticket répondent 403 self_excluded. 400 : code faux ou expiré.',
        security: [{ bearer: [] }],
        body: SelfExclusionBody,
        response: { 200: Envelope(SelfExclusionData, UserId), 400: ErrorEnvelope, ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const until = await account.excludeSelf(user, request.body, { ip: request.ip });
      return envelope({ user: { id: user.id }, message: playTexts.excluded, data: { until } });
    },
  );

  app.get(
    '/api/user/account/export',
    {
      schema: {
        tags: ['account'],
        summary: 'Télécharger toutes mes données (au plus une fois par heure)',
        security: [{ bearer: [] }],
        response: {
          200: FileResponse(
            ['application/json'],
            'A JSON attachment (not an envelope), streamed: {exported_at, user, pronostics, operations, payments, withdrawals, tickets, devices, slips, referrals}',
          ),
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const chunks = await account.exportData(user);
      const day = app.clock.now().toISOString().slice(0, 10);
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="mes-donnees-${day}.json"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(Readable.from(chunks));
    },
  );

  // The page in its reader's language (src/lib/page-locale.ts); an answer that sets the language
  // cookie is the reader's own, kept by no shared cache.
  app.get('/account/delete', { schema: { hide: true } }, async (request, reply) => {
    const locale = pageLocale(request, reply);
    const scope = reply.hasHeader('set-cookie') ? 'private' : 'public';
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', `${scope}, max-age=300`)
      .send(accountDeletePage(locale));
  });
  // The page names its script's language in the address: one file per language, cached as such.
  app.get('/account/delete/app.js', { schema: { hide: true } }, async (request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(accountDeleteScript(scriptLocale(request))),
  );
};

export default accountRoutes;
