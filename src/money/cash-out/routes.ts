// The withdrawals' routes: a user's withdrawals and their request (under /api/user/affiliation, as the
// spec has them), and the back office's processing (`/api/admin/*` is guarded by the auth plugin: an
// admin token, else 401/403). Handlers call the withdrawals service; the rules are there.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { ApprovalData, adminErrors } from '../../modules/admin/schemas.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, Envelope, ErrorEnvelope, IdParams, UserId } from '../../schemas/common.js';
import {
  AdminWithdrawalSchema,
  AdminWithdrawalsData,
  AdminWithdrawalsQuery,
  ApproveBody,
  ProviderReadData,
  RejectBody,
  ResolveBody,
  WithdrawalsData,
  WithdrawalsQuery,
  WithdrawBody,
  WithdrawData,
  WithdrawUser,
} from './schemas.js';
import type { WithdrawResult } from './withdrawals.js';

const OneWithdrawal = Envelope(Type.Object({ withdrawal: AdminWithdrawalSchema }), UserId);
const decisionErrors = { ...adminErrors, 404: ErrorEnvelope, 409: ErrorEnvelope };

function withdrawAnswer(result: WithdrawResult) {
  return envelope({
    user: { id: result.userId, money_balance: result.balance },
    message: messages.withdrawalCreated,
    data: { balance: result.balance },
  });
}

const withdrawalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { withdrawals } = app.services;

  app.get(
    '/api/user/affiliation/withdrawals',
    {
      schema: {
        tags: ['affiliation'],
        summary: 'Mes retraits (paginés, filtre status)',
        security: [{ bearer: [] }],
        querystring: WithdrawalsQuery,
        response: { 200: Envelope(WithdrawalsData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.withdrawalList,
        data: await withdrawals.listOwn(user, request.query),
      });
    },
  );

  app.post(
    '/api/user/affiliation/withdraw',
    {
      config: { idempotency: 'affiliation.withdraw' },
      schema: {
        tags: ['affiliation'],
        summary: 'Demander un retrait par mobile money (débité aussitôt, en attente de validation)',
        security: [{ bearer: [] }],
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: WithdrawBody,
        response: {
          201: Envelope(WithdrawData, WithdrawUser),
          402: ErrorEnvelope,
          409: ErrorEnvelope,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const result = await withdrawals.withdraw(user, request.body, request.idempotent(201, withdrawAnswer));
      return reply.code(201).send(withdrawAnswer(result));
    },
  );

  app.get(
    '/api/admin/withdrawals',
    {
      schema: {
        tags: ['admin'],
        summary: 'Demandes de retrait (paginées ; filtres status, phone, from, to, escalated)',
        security: [{ bearer: [] }],
        querystring: AdminWithdrawalsQuery,
        response: { 200: Envelope(AdminWithdrawalsData, UserId), ...adminErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.adminWithdrawalList,
        data: await withdrawals.listForAdmin(request.query),
      });
    },
  );

  app.post(
    '/api/admin/withdrawals/:id/approve',
    {
      schema: {
        tags: ['admin'],
        summary: 'Approuver un retrait : le transfert mobile money part aussitôt (une seule décision)',
        description:
          'Quatre yeux : quand ce retrait et les autres retraits de l’utilisateur approuvés dans les dernières 24 h atteignent WITHDRAWAL_SECOND_APPROVAL_XAF, rien n’est approuvé : 202 avec data.approval en attente, qu’un autre administrateur confirme par POST /api/admin/approvals/{id}/confirm. Une nouvelle approbation pendant qu’une est en attente : 409.',
        security: [{ bearer: [] }],
        params: IdParams,
        body: ApproveBody,
        response: { 200: OneWithdrawal, 202: Envelope(ApprovalData, UserId), ...decisionErrors },
      },
      // The body is optional: an approval without a note sends none.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const decided = await withdrawals.approve(user, request.params.id, request.body.message);
      if ('approval' in decided) {
        return reply
          .code(202)
          .send(envelope({ user: { id: user.id }, message: messages.approvalRequested, data: decided }));
      }
      return envelope({ user: { id: user.id }, message: messages.withdrawalApproved, data: decided });
    },
  );

  app.post(
    '/api/admin/withdrawals/:id/reject',
    {
      schema: {
        tags: ['admin'],
        summary: 'Refuser un retrait avec un motif : annulé et remboursé (une seule décision)',
        security: [{ bearer: [] }],
        params: IdParams,
        body: RejectBody,
        response: { 200: OneWithdrawal, ...decisionErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const withdrawal = await withdrawals.reject(user, request.params.id, request.body.message);
      return envelope({ user: { id: user.id }, message: messages.withdrawalRejected, data: { withdrawal } });
    },
  );

  app.get(
    '/api/admin/withdrawals/:id/provider-read',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Lire à l’instant le transfert d’un retrait signalé chez le prestataire (rien n’est modifié)',
        description:
          'Seulement pour un retrait en attente dont le transfert a été signalé (escalated) ; sinon 409. Jamais son propre retrait (403). Ce que l’administrateur consulte avant de clôturer à la main ; la clôture relit le transfert et inscrit sa lecture au journal.',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: Envelope(ProviderReadData, UserId), ...decisionErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const read = await withdrawals.readEscalatedPayout(user, request.params.id);
      return envelope({
        user: { id: user.id },
        message: messages.withdrawalProviderRead,
        data: { provider_read: read },
      });
    },
  );

  app.post(
    '/api/admin/withdrawals/:id/resolve',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Clôturer à la main un retrait dont le transfert est signalé (payé : effectué ; échoué : annulé et remboursé)',
        description:
          'Seulement pour un retrait en attente dont le transfert a été signalé (escalated) ; sinon 409. « failed » exige une lecture du transfert chez le prestataire, faite à l’instant, qui montre un échec définitif, sinon override: true avec le motif (422 sur override). Jamais son propre retrait (403). Un événement tardif du prestataire qui contredit la clôture lève un signalement.',
        security: [{ bearer: [] }],
        params: IdParams,
        body: ResolveBody,
        response: { 200: OneWithdrawal, ...decisionErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const withdrawal = await withdrawals.resolveEscalated(user, request.params.id, request.body);
      return envelope({ user: { id: user.id }, message: messages.withdrawalResolved, data: { withdrawal } });
    },
  );
};

export default withdrawalRoutes;
