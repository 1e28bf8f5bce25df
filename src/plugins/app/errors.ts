// One place turns every failure into the envelope: domain errors, schema validation, the errors
// Fastify raises before a route runs (bad JSON, size, media type, malformed URL), unknown routes
// and wrong methods. A 5xx never shows its cause; the log keeps it with the request id.
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { type ErrorBody, errorEnvelope as envelope } from '../../lib/envelope.js';
import {
  AccessDenied,
  AccountDeletionRefused,
  AccountIsDeleted,
  AlreadyDecided,
  ApprovalAlreadyDecided,
  ApprovalPending,
  ChallengeRequired,
  DomainError,
  type FieldErrors,
  FixtureExists,
  FlagAlreadyResolved,
  InsufficientBalance,
  InsufficientCredits,
  InvalidCode,
  MismatchedPaymentCredit,
  NoAdminLeft,
  NotFound,
  PayoutNotEscalated,
  PronosticTypeExists,
  RateLimited,
  RequestInFlight,
  TicketClosed,
  Unauthenticated,
  UpstreamFailed,
  ValidationFailed,
} from '../../lib/errors.js';
import { DEFAULT_LOCALE, inLocale, negotiateLocale } from '../../lib/locale.js';
import { type MessageKey, messages, validationMessages } from '../../lib/messages.js';
import { languageHeaders } from './locale.js';

interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  headers?: Record<string, string>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, as method and path: the 405 check and the OpenAPI test read it. */
    routeCatalog: readonly { method: string; url: string; hidden: boolean }[];
  }
  interface FastifyContextConfig {
    /** The OTP endpoints omit `errors` on answers other than 422, as the spec shows. */
    omitErrors?: boolean;
  }
}

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
}

/** `/teams_details/home` + keyword → `teams_details.home`; the root is named after the request part. */
function fieldOf(error: AjvError, part: string): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required' && typeof error.params.missingProperty === 'string') {
    path.push(error.params.missingProperty);
  }
  if (error.keyword === 'additionalProperties' && typeof error.params.additionalProperty === 'string') {
    path.push(error.params.additionalProperty);
  }
  return path.length > 0 ? path.join('.') : part;
}

function messageFor(error: AjvError, field: string): string {
  const limit = Number(error.params.limit);
  switch (error.keyword) {
    case 'required':
      return validationMessages.required(field);
    case 'type':
      return validationMessages.type(field, String(error.params.type).split(',')[0] ?? 'string');
    case 'minLength':
      return validationMessages.minLength(field, limit);
    case 'maxLength':
      return validationMessages.maxLength(field, limit);
    case 'minimum':
      return validationMessages.minimum(field, limit);
    case 'maximum':
      return validationMessages.maximum(field, limit);
    case 'enum':
      return validationMessages.enum(field, (error.params.allowedValues as unknown[]) ?? []);
    case 'const':
      return validationMessages.enum(field, [error.params.allowedValue]);
    case 'format':
      return validationMessages.format(field);
    case 'pattern':
      return validationMessages.pattern(field);
    case 'additionalProperties':
      return validationMessages.additionalProperties(field);
    case 'maxProperties':
      return validationMessages.maxProperties(field);
    case 'maxItems':
      return validationMessages.maxItems(field, limit);
    default:
      return validationMessages.invalid(field);
  }
}

export function validationErrors(errors: readonly AjvError[], part: string): FieldErrors {
  const fields: FieldErrors = {};
  for (const error of errors) {
    // An anyOf reports each branch's failure too; the branches' own messages say it better.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const field = fieldOf(error, part);
    const message = messageFor(error, field);
    const list = fields[field] ?? [];
    if (!list.includes(message)) list.push(message);
    fields[field] = list;
  }
  if (Object.keys(fields).length === 0) fields[part] = [validationMessages.invalid(part)];
  return fields;
}

/** The status of each domain error; anything not listed (UpstreamFailed included) is a 500. */
const domainStatuses: [abstract new (...args: never[]) => DomainError, number][] = [
  [InvalidCode, 400],
  [Unauthenticated, 401],
  [InsufficientCredits, 402],
  [InsufficientBalance, 402],
  [AccessDenied, 403],
  [NotFound, 404],
  [RequestInFlight, 409],
  [AlreadyDecided, 409],
  [ApprovalAlreadyDecided, 409],
  [ApprovalPending, 409],
  [TicketClosed, 409],
  [FixtureExists, 409],
  [PronosticTypeExists, 409],
  [PayoutNotEscalated, 409],
  [FlagAlreadyResolved, 409],
  [MismatchedPaymentCredit, 409],
  [AccountDeletionRefused, 409],
  [AccountIsDeleted, 409],
  [NoAdminLeft, 409],
  [ValidationFailed, 422],
  [ChallengeRequired, 428],
  [RateLimited, 429],
];

function fromDomainError(error: DomainError): ErrorAnswer {
  const status = domainStatuses.find(([type]) => error instanceof type)?.[1] ?? 500;
  const body = envelope({
    user: error.user ?? null,
    message: error.message,
    data: error.data,
    ...(error instanceof ValidationFailed ? { errors: error.errors } : {}),
  });
  if (error instanceof RateLimited) {
    return { status, body, headers: { 'retry-after': String(error.data.retry_after) } };
  }
  return { status, body };
}

// Keys, not texts: a text read here, at module load, would stay French for every request.
/** @fastify/multipart's limit errors (413), said in words a person understands. */
const multipartLimitMessages: Record<string, MessageKey> = {
  FST_REQ_FILE_TOO_LARGE: 'uploadTooLarge',
  FST_FILES_LIMIT: 'uploadTooManyParts',
  FST_FIELDS_LIMIT: 'uploadTooManyParts',
  FST_PARTS_LIMIT: 'uploadTooManyParts',
};

const frameworkStatusMessages: Record<number, MessageKey> = {
  400: 'badRequest',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'routeNotFound',
  405: 'methodNotAllowed',
  413: 'payloadTooLarge',
  415: 'unsupportedMediaType',
  429: 'tooManyRequests',
};

export function toErrorAnswer(error: FastifyError | DomainError | Error): ErrorAnswer {
  if (error instanceof DomainError) return fromDomainError(error);
  const fastifyError = error as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fastifyError.validation) {
    const part = fastifyError.validationContext ?? 'body';
    // A path id that is not a positive integer names no resource.
    if (part === 'params') return { status: 404, body: envelope({ message: messages.notFound }) };
    const errors = validationErrors(fastifyError.validation, part);
    return {
      status: 422,
      body: envelope({ message: Object.values(errors)[0]?.[0] ?? messages.validationFailed, errors }),
    };
  }
  // A body that cannot be read as JSON is a 422 on `body` (Fastify says 400).
  const bodyError = (message: string): ErrorAnswer => ({
    status: 422,
    body: envelope({ message, errors: { body: [message] } }),
  });
  if (fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return bodyError(messages.emptyBody);
  if (
    fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
    (error instanceof SyntaxError && fastifyError.statusCode === 400)
  ) {
    return bodyError(messages.invalidJson);
  }
  const status = fastifyError.statusCode;
  const limitMessage = multipartLimitMessages[fastifyError.code];
  if (status === 413 && limitMessage) return { status, body: envelope({ message: messages[limitMessage] }) };
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, body: envelope({ message: messages[frameworkStatusMessages[status] ?? 'badRequest'] }) };
  }
  return { status: 500, body: envelope({ message: messages.serverError }) };
}

export function sendError(reply: FastifyReply, answer: ErrorAnswer, omitErrors = false): FastifyReply {
  if (omitErrors && answer.status !== 422) delete answer.body.errors;
  if (answer.headers) reply.headers(answer.headers);
  return reply.code(answer.status).type('application/json; charset=utf-8').send(answer.body);
}

/**
 * Fastify's `frameworkErrors`: failures before routing (a malformed URL) get the envelope too, in
 * the caller's language: no hook has run yet, so the language is chosen here.
 */
export function frameworkErrorHandler(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const asked = negotiateLocale(request.headers['accept-language']);
  request.askedLocale = asked;
  request.locale = asked ?? DEFAULT_LOCALE;
  reply.header('x-request-id', request.id);
  inLocale(request.locale, () => {
    languageHeaders(reply, request.locale);
    sendError(reply, toErrorAnswer(error));
  });
}

const ROUTABLE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** DESIGN: past the body limit, the rest of the body is read and dropped, up to this much… */
export const LINGER_MAX_BYTES = 1024 * 1024;
/** …for at most this long, before the 413 is sent and the connection closed. */
export const LINGER_MAX_MS = 10_000;

/**
 * Reads and drops what the client is still sending of a refused body (bounded), so that closing
 * the connection after the answer finds nothing unread: a close with unread bytes resets the
 * connection, and the reset can discard the answer before a client still sending has read it
 * (the "lingering close" of servers such as nginx).
 */
function drainUnreadBody(raw: IncomingMessage): Promise<void> {
  if (raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise<void>((resolve) => {
    let drained = 0;
    const finish = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', finish);
      raw.off('close', finish);
      raw.off('error', finish);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > LINGER_MAX_BYTES) finish();
    };
    const timer = setTimeout(finish, LINGER_MAX_MS);
    raw.on('data', onData);
    raw.once('end', finish);
    raw.once('close', finish);
    raw.once('error', finish);
    raw.resume();
  });
}

async function errorsPlugin(app: FastifyInstance): Promise<void> {
  // Every route's path per method, to tell "no such route" (404) from "not with this method" (405).
  const routes = FindMyWay();
  const catalog: { method: string; url: string; hidden: boolean }[] = [];
  app.decorate('routeCatalog', catalog);
  const handler = () => {};
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true;
    for (const method of methods) {
      catalog.push({ method: String(method), url: route.url, hidden });
      try {
        routes.on(method as HTTPMethod, route.url, handler);
      } catch {
        // Already known: HEAD is registered beside GET.
      }
    }
  });

  app.setErrorHandler(async (error, request, reply) => {
    const answer = toErrorAnswer(error as Error);
    if (answer.status === 413) {
      // The client may still be sending: drain first, then answer and close.
      await drainUnreadBody(request.raw);
      reply.header('connection', 'close');
    }
    // An upstream failure was logged, with its provider's details, where it was caught.
    if (answer.status >= 500 && !(error instanceof UpstreamFailed)) {
      request.log.error({ err: error }, 'request failed');
    }
    // An answer to a signed-in caller names them (DESIGN: `user` holds at least {id}); a 422 keeps
    // `user` null as the spec shows.
    const signedIn = (request as { user?: { id: number } | null }).user;
    if (signedIn && answer.body.user === null && answer.status !== 422 && answer.status !== 401) {
      answer.body.user = { id: signedIn.id };
    }
    return sendError(reply, answer, request.routeOptions.config?.omitErrors === true);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = ROUTABLE_METHODS.filter(
      (method) => method !== request.method && routes.find(method as HTTPMethod, path) !== null,
    );
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendError(reply, { status: 405, body: envelope({ message: messages.methodNotAllowed }) });
    }
    return sendError(reply, { status: 404, body: envelope({ message: messages.routeNotFound }) });
  });
}

export default fp(errorsPlugin, { name: 'errors' });
