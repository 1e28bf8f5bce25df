// The typed client's core: openapi-fetch over the types openapi-typescript generates from the
// service's own OpenAPI document (`schema.d.ts`, `npm run client:generate`). Every path, query,
// body and answer is typed; `dataOf` unwraps the {user, message, data, errors} envelope. The web
// apps import it (and `events.ts`, `signup.ts`) by file, so a bundler puts each part only in the
// chunks that use it: the stream reader stays out of the web app's first screen.
import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, paths } from './schema.js';
export type PronosticsClient = Client<paths>;

export interface PronosticsClientOptions {
  /** The service's origin, e.g. `https://api.example.com` (the paths start with `/api/`). */
  baseUrl: string;
  /** The bearer token from `POST /api/otp/verify`, or a function read before every request. */
  token?: string | null | (() => string | null | undefined);
  /** Another fetch (tests, React Native polyfills). */
  fetch?: typeof fetch;
}

export function createPronosticsClient(options: PronosticsClientOptions): PronosticsClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  client.use({
    onRequest({ request }) {
      const token = typeof options.token === 'function' ? options.token() : options.token;
      if (token) request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  });
  return client;
}

/** A non-2xx answer: its status, the envelope's French `message` and its field errors when any. */
export class ApiError extends Error {
  readonly status: number;
  readonly fieldErrors: Record<string, string[]>;
  readonly body: unknown;

  constructor(status: number, body: unknown) {
    const envelope = (body ?? {}) as { message?: unknown; errors?: unknown };
    super(typeof envelope.message === 'string' ? envelope.message : `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    const errors = envelope.errors;
    this.fieldErrors =
      errors && typeof errors === 'object' && !Array.isArray(errors)
        ? (errors as Record<string, string[]>)
        : {};
  }
}

interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The whole success envelope, or an `ApiError` thrown with the error envelope's message. */
export async function envelopeOf<T>(call: Promise<FetchResult<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok || data === undefined) throw new ApiError(response.status, error);
  return data;
}

/** The envelope's `data`: `await dataOf(client.GET('/api/admin/withdrawals', …))`. */
export async function dataOf<T extends { data: unknown }>(call: Promise<FetchResult<T>>): Promise<T['data']> {
  return (await envelopeOf(call)).data;
}

type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type SuccessOf<Op> = Op extends { responses: infer R }
  ? R extends { 200: infer A }
    ? JsonOf<A>
    : R extends { 201: infer B }
      ? JsonOf<B>
      : never
  : never;

/** The `data` of a route's success answer: `ResponseData<'/api/admin/withdrawals', 'get'>`. */
export type ResponseData<P extends keyof paths, M extends keyof paths[P]> =
  SuccessOf<paths[P][M]> extends { data: infer D } ? D : never;

/** The pagination block every list answer carries in `data.meta` (the same on every list route). */
export type PageMeta = ResponseData<'/api/admin/withdrawals', 'get'>['meta'];
