import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { create as contentDisposition } from 'content-disposition';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { ValidationFailed } from '../../lib/errors.js';
import { messages, validationMessages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { isStorableText } from '../../plugins/app/text-guard.js';
import uploads, { nonEmptyFile, readForm, requireMultipart } from '../../plugins/external/uploads.js';
import { authErrors, Envelope, ErrorEnvelope, FileResponse, IdParams, UserId } from '../../schemas/common.js';
import { adminErrors } from '../admin/schemas.js';
import {
  AdminTicketListData,
  AdminTicketListQuery,
  AdminTicketSchema,
  ReplyBody,
  TicketListData,
  TicketListQuery,
  TicketSchema,
} from './schemas.js';
import { ATTACHMENT_TYPES, type TicketForm } from './service.js';

/** 5 MB: DESIGN.md's limit on an attachment. */
export const ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The ticket form's sizes: `subject`, `message` and an optional `attachment` (other fields and
 * files are ignored; 413 past these or past 10 parts). A field is cut at 20 KiB, past 5000
 * characters of any script, so a cut value is always refused by its length check.
 */
const ticketSizes = { fileSize: ATTACHMENT_MAX_BYTES, fieldSize: 20 * 1024 };

const OneTicket = Envelope(Type.Object({ ticket: TicketSchema }), UserId);
const OneAdminTicket = Envelope(Type.Object({ ticket: AdminTicketSchema }), UserId);
const ownedErrors = { ...authErrors, 403: ErrorEnvelope, 404: ErrorEnvelope };
const replyErrors = { ...ownedErrors, 409: ErrorEnvelope };
const adminTicketErrors = { ...adminErrors, 404: ErrorEnvelope };

type App = Parameters<FastifyPluginAsyncTypebox>[0];

/** The user's ticket routes, then the back office's, in the scope that reads multipart forms. */
const supportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(uploads);
  userTicketRoutes(app);
  adminTicketRoutes(app);
};

/** A user's own tickets: open one (multipart), list, read, reply, close, fetch its attachment. */
function userTicketRoutes(app: App): void {
  const { support } = app.services;

  app.post(
    '/api/user/support/ticket/create',
    {
      schema: {
        tags: ['support'],
        summary: 'Ouvrir une demande d’assistance (multipart : subject, message, attachment facultatif)',
        description:
          'attachment : JPEG, PNG, WebP ou PDF (reconnu à son contenu), 5 Mo au plus (413 au-delà). 429 au-delà de 5 demandes non clôturées.',
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        // The form is a stream the handler reads (no body schema): the service checks its fields.
        response: { 201: OneTicket, ...authErrors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      requireMultipart(request);
      await support.assertCanOpen(user);
      const ticket = await support.create(user, async (storeAttachment) => {
        const form: TicketForm = {};
        let attached = false;
        await readForm(request, ticketSizes, async (part) => {
          if (part.type === 'file') {
            // An empty attachment is none (a browser sends one when no file is chosen); one is kept.
            const file =
              part.fieldname === 'attachment' && !attached ? await nonEmptyFile(request, part) : undefined;
            if (file) {
              attached = true;
              await storeAttachment(file, part.filename);
            } else {
              part.file.resume();
            }
          } else if (part.fieldname === 'subject' || part.fieldname === 'message') {
            const value = String(part.value);
            // The text guard sees JSON bodies only: a form's text is checked here.
            if (!isStorableText(value)) {
              throw ValidationFailed.field(part.fieldname, validationMessages.unstorableText(part.fieldname));
            }
            form[part.fieldname] = value;
          }
        });
        return form;
      });
      return reply
        .code(201)
        .send(envelope({ user: { id: user.id }, message: messages.ticketCreated, data: { ticket } }));
    },
  );

  app.get(
    '/api/user/support/tickets',
    {
      schema: {
        tags: ['support'],
        summary:
          'Mes demandes d’assistance (paginées, plus récentes d’abord, avec les réponses ; filtre status)',
        security: [{ bearer: [] }],
        querystring: TicketListQuery,
        response: { 200: Envelope(TicketListData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.ticketList,
        data: await support.listOwn(user, request.query),
      });
    },
  );

  app.get(
    '/api/user/support/ticket/:id',
    {
      schema: {
        tags: ['support'],
        summary: 'Détail d’une demande d’assistance, avec les réponses',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: OneTicket, ...ownedErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const ticket = await support.getOwn(user, request.params.id);
      return envelope({ user: { id: user.id }, message: messages.ticketDetail, data: { ticket } });
    },
  );

  app.post(
    '/api/user/support/ticket/:id/reply',
    {
      schema: {
        tags: ['support'],
        summary: 'Répondre à sa demande (elle redevient open) ; 409 si elle est clôturée',
        security: [{ bearer: [] }],
        params: IdParams,
        body: ReplyBody,
        response: { 200: OneTicket, ...replyErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const ticket = await support.replyOwn(user, request.params.id, request.body.message);
      return envelope({ user: { id: user.id }, message: messages.ticketReplied, data: { ticket } });
    },
  );

  app.post(
    '/api/user/support/ticket/:id/close',
    {
      schema: {
        tags: ['support'],
        summary: 'Clôturer sa demande (sans effet si elle l’est déjà)',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: OneTicket, ...ownedErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const ticket = await support.closeOwn(user, request.params.id);
      return envelope({ user: { id: user.id }, message: messages.ticketClosed, data: { ticket } });
    },
  );

  app.get(
    '/api/user/support/ticket/:id/attachment',
    {
      schema: {
        tags: ['support'],
        summary: 'La pièce jointe d’une demande (son auteur et les administrateurs seulement)',
        security: [{ bearer: [] }],
        params: IdParams,
        response: {
          // Streamed from the storage driver, with the type its content showed at upload.
          200: FileResponse(ATTACHMENT_TYPES, 'The attachment as uploaded, typed by its content'),
          ...ownedErrors,
        },
      },
    },
    async (request, reply) => {
      const { file, contentType, name } = await support.attachmentOf(currentUser(request), request.params.id);
      return reply
        .type(contentType)
        .header('content-length', file.size)
        .header('content-disposition', contentDisposition(name))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(file.body);
    },
  );
}

/** The back office's tickets: list, read, reply as the support, close. */
function adminTicketRoutes(app: App): void {
  const { support } = app.services;

  app.get(
    '/api/admin/tickets',
    {
      schema: {
        tags: ['admin'],
        summary: 'Demandes d’assistance (paginées, plus récentes d’abord ; filtres status, from, to)',
        security: [{ bearer: [] }],
        querystring: AdminTicketListQuery,
        response: { 200: Envelope(AdminTicketListData, UserId), ...adminErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      return envelope({
        user: { id: admin.id },
        message: messages.adminTicketList,
        data: await support.listAll(request.query),
      });
    },
  );

  app.get(
    '/api/admin/tickets/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Détail d’une demande d’assistance',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: OneAdminTicket, ...adminTicketErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      const ticket = await support.getAny(request.params.id);
      return envelope({ user: { id: admin.id }, message: messages.ticketDetail, data: { ticket } });
    },
  );

  app.post(
    '/api/admin/tickets/:id/reply',
    {
      schema: {
        tags: ['admin'],
        summary: 'Répondre au nom du support (la demande passe à answered) ; 409 si elle est clôturée',
        security: [{ bearer: [] }],
        params: IdParams,
        body: ReplyBody,
        response: { 200: OneAdminTicket, ...adminTicketErrors, 409: ErrorEnvelope },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      const ticket = await support.replyAsSupport(admin, request.params.id, request.body.message);
      return envelope({ user: { id: admin.id }, message: messages.ticketReplied, data: { ticket } });
    },
  );

  app.post(
    '/api/admin/tickets/:id/close',
    {
      schema: {
        tags: ['admin'],
        summary: 'Clôturer une demande (sans effet si elle l’est déjà)',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: OneAdminTicket, ...adminTicketErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      const ticket = await support.closeAsSupport(admin, request.params.id);
      return envelope({ user: { id: admin.id }, message: messages.ticketClosed, data: { ticket } });
    },
  );
}

export default supportRoutes;
