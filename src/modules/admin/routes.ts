// The admin area's own routes: the audit log the back office reads (`/api/admin/*` is guarded by
// the auth plugin: an admin token, else 401 or 403).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { Envelope, UserId } from '../../schemas/common.js';
import { AuditListData, AuditQuery, adminErrors } from './schemas.js';

const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { admin } = app.services;

  app.get(
    '/api/admin/audit',
    {
      schema: {
        tags: ['admin'],
        summary: 'Journal des actions des administrateurs (paginé, filtres action et target_type)',
        security: [{ bearer: [] }],
        querystring: AuditQuery,
        response: { 200: Envelope(AuditListData, UserId), ...adminErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.auditList,
        data: await admin.listAudit(request.query),
      });
    },
  );
};

export default adminRoutes;
