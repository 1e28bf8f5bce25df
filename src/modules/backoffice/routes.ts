// The back office's users, dashboard and four-eyes approvals (its flags are money's: src/money/flags/routes.ts)
// (`/api/admin/*` is guarded by the auth plugin: an admin token, else 401 or 403). Reads compose the
// owning modules' services; each action is one service call that writes its effect and its audit row
// in one transaction.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { AdminWithdrawalSchema, OperationsQuery } from '../../money/index.js';
import { currentUser } from '../../plugins/app/auth.js';
import { Envelope, ErrorEnvelope, IdParams, UserId } from '../../schemas/common.js';
import {
  ApprovalData,
  ApprovalListData,
  ApprovalSchema,
  ApprovalsQuery,
  adminErrors,
} from '../admin/schemas.js';
import type { CreditAdjustment } from '../users/service.js';
import {
  AdjustCreditsBody,
  AdjustCreditsData,
  AdminUserDetailData,
  AdminUserListData,
  AdminUserListQuery,
  AdminUserOperationsData,
  AdminUserPageQuery,
  AdminUserPronosticsData,
  OneUserData,
  RoleBody,
  StatsData,
} from './schemas.js';

// 409: the account is deleted (a tombstone takes no block, role or credit change).
const oneUserErrors = { ...adminErrors, 404: ErrorEnvelope, 409: ErrorEnvelope };

const backofficeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { backoffice, users, wallet, pronostics, tokens } = app.services;

  /** 404 when the account does not exist (the lists of an unknown id are not empty lists). */
  const requireUser = (id: number) => backoffice.requireUser(id);

  app.get(
    '/api/admin/users',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Utilisateurs (paginés, plus récents d’abord ; recherche par téléphone, nom d’utilisateur ou nom)',
        security: [{ bearer: [] }],
        querystring: AdminUserListQuery,
        response: { 200: Envelope(AdminUserListData, UserId), ...adminErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      return envelope({
        user: { id: admin.id },
        message: messages.adminUserList,
        data: await users.listForAdmin(request.query),
      });
    },
  );

  app.get(
    '/api/admin/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Un utilisateur, ses pronostics par statut, ses paiements, ses retraits en attente, son parrainage',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: Envelope(AdminUserDetailData, UserId), ...oneUserErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      return envelope({
        user: { id: admin.id },
        message: messages.adminUserDetail,
        data: await backoffice.userDetail(request.params.id),
      });
    },
  );

  app.get(
    '/api/admin/users/:id/operations',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Opérations du portefeuille d’un utilisateur (paginées, plus récentes d’abord ; filtres type, currency, from, to)',
        security: [{ bearer: [] }],
        params: IdParams,
        querystring: OperationsQuery,
        response: { 200: Envelope(AdminUserOperationsData, UserId), ...oneUserErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      await requireUser(request.params.id);
      return envelope({
        user: { id: admin.id },
        message: messages.adminUserOperations,
        data: await wallet.listOwn({ id: request.params.id }, request.query),
      });
    },
  );

  app.get(
    '/api/admin/users/:id/pronostics',
    {
      schema: {
        tags: ['admin'],
        summary: 'Pronostics d’un utilisateur, supprimés compris (paginés, plus récents d’abord)',
        security: [{ bearer: [] }],
        params: IdParams,
        querystring: AdminUserPageQuery,
        response: { 200: Envelope(AdminUserPronosticsData, UserId), ...oneUserErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      await requireUser(request.params.id);
      return envelope({
        user: { id: admin.id },
        message: messages.adminUserPronostics,
        data: await pronostics.listForAdmin(request.params.id, request.query),
      });
    },
  );

  app.post(
    '/api/admin/users/:id/credits',
    {
      config: { idempotency: 'admin-credits' },
      schema: {
        tags: ['admin'],
        summary: 'Ajuster le solde de crédits (ligne admin_adjustment avec la raison ; jamais sous zéro)',
        description:
          'En-tête Idempotency-Key accepté. Un retrait qui rendrait le solde négatif : 422 sur amount, rien n’est changé. Son propre compte : 403 (un autre administrateur doit le faire).',
        security: [{ bearer: [] }],
        params: IdParams,
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: AdjustCreditsBody,
        response: { 200: Envelope(AdjustCreditsData, UserId), ...oneUserErrors, 409: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      const admin = currentUser(request);
      const answer = (data: CreditAdjustment) =>
        envelope({ user: { id: admin.id }, message: messages.userCreditsAdjusted, data });
      const adjusted = await users.adjustCredits(
        admin,
        request.params.id,
        request.body,
        request.idempotent(200, answer),
      );
      return reply.code(200).send(answer(adjusted));
    },
  );

  // The texts are read when answering (a function each), in the request's language.
  for (const [verb, status, message] of [
    ['block', 'blocked', () => messages.userBlocked],
    ['unblock', 'active', () => messages.userUnblocked],
  ] as const) {
    app.post(
      `/api/admin/users/:id/${verb}`,
      {
        schema: {
          tags: ['admin'],
          summary:
            status === 'blocked'
              ? 'Bloquer un compte (ses jetons cessent de fonctionner aussitôt ; jamais le sien)'
              : 'Débloquer un compte',
          security: [{ bearer: [] }],
          params: IdParams,
          response: { 200: Envelope(OneUserData, UserId), ...oneUserErrors },
        },
      },
      async (request) => {
        const admin = currentUser(request);
        const user = await users.setStatus(admin, request.params.id, status);
        // This process forgets the account's cached tokens at once; the others on the trigger's announcement.
        if (status === 'blocked') tokens.cache.forgetUser(user.id);
        return envelope({ user: { id: admin.id }, message: message(), data: { user } });
      },
    );
  }

  app.get(
    '/api/admin/stats',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Chiffres du jour et des 30 derniers jours (jours UTC), série quotidienne, précision du moteur',
        security: [{ bearer: [] }],
        response: { 200: Envelope(StatsData, UserId), ...adminErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      return envelope({
        user: { id: admin.id },
        message: messages.adminStats,
        data: await backoffice.stats(),
      });
    },
  );
};

// 403 also for the admin who asked; 404 unknown; 409 decided already (or the effect refused).
const approvalDecisionErrors = { ...adminErrors, 404: ErrorEnvelope, 409: ErrorEnvelope };

/** A confirmation's answer: the approval and the effect's object (the account or the withdrawal). */
const ConfirmedData = Type.Object({
  approval: ApprovalSchema,
  user: Type.Optional(OneUserData.properties.user),
  withdrawal: Type.Optional(AdminWithdrawalSchema),
});

/**
 * Four eyes (DESIGN, "Admin routes and the back office"): a role change (a promotion to admin waits
 * for a second admin), the approvals waiting for a second admin, and their confirmation (the owning module runs the action, through the back office's service) or
 * rejection (nothing is done but recording it).
 */
export const approvalRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { approvals, backoffice, users, tokens } = app.services;

  app.post(
    '/api/admin/users/:id/role',
    {
      schema: {
        tags: ['admin'],
        summary: 'Changer le rôle d’un compte (user ou admin ; jamais le sien)',
        description:
          'Une promotion en admin demande un second administrateur (quatre yeux) : 202 avec data.approval en attente, que un autre administrateur confirme par POST /api/admin/approvals/{id}/confirm ; une seconde demande pendant qu’une est en attente : 409. Un retrait du rôle admin se fait seul (200).',
        security: [{ bearer: [] }],
        params: IdParams,
        body: RoleBody,
        response: {
          200: Envelope(OneUserData, UserId),
          202: Envelope(ApprovalData, UserId),
          ...oneUserErrors,
        },
      },
    },
    async (request, reply) => {
      const admin = currentUser(request);
      const change = await users.setRoleAsAdmin(admin, request.params.id, request.body.role);
      if ('approval' in change) {
        return reply
          .code(202)
          .send(envelope({ user: { id: admin.id }, message: messages.approvalRequested, data: change }));
      }
      tokens.cache.forgetUser(change.user.id);
      return envelope({ user: { id: admin.id }, message: messages.userRoleChanged, data: change });
    },
  );

  app.get(
    '/api/admin/approvals',
    {
      schema: {
        tags: ['admin'],
        summary: 'Approbations à quatre yeux (paginées, plus récentes d’abord ; filtre status)',
        security: [{ bearer: [] }],
        querystring: ApprovalsQuery,
        response: { 200: Envelope(ApprovalListData, UserId), ...adminErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      return envelope({
        user: { id: admin.id },
        message: messages.approvalList,
        data: await approvals.list(request.query),
      });
    },
  );

  app.post(
    '/api/admin/approvals/:id/confirm',
    {
      schema: {
        tags: ['admin'],
        summary: 'Confirmer une approbation en attente : l’action demandée est exécutée',
        description:
          'Par un autre administrateur que celui qui l’a demandée (sinon 403) ; une approbation déjà décidée : 409.',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: Envelope(ConfirmedData, UserId), ...approvalDecisionErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      const confirmed = await backoffice.confirmApproval(admin, request.params.id);
      if ('user' in confirmed) app.services.tokens.cache.forgetUser(confirmed.user.id);
      return envelope({ user: { id: admin.id }, message: messages.approvalConfirmed, data: confirmed });
    },
  );

  app.post(
    '/api/admin/approvals/:id/reject',
    {
      schema: {
        tags: ['admin'],
        summary: 'Refuser une approbation en attente : rien n’est exécuté',
        description:
          'Par un autre administrateur que celui qui l’a demandée (sinon 403) ; une approbation déjà décidée : 409.',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: Envelope(ApprovalData, UserId), ...approvalDecisionErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      const approval = await approvals.reject(admin, request.params.id);
      return envelope({ user: { id: admin.id }, message: messages.approvalRejected, data: { approval } });
    },
  );
};

export default backofficeRoutes;
