// Schema fuzzing: for every operation of the live OpenAPI document, valid and broken requests
// (wrong types, missing and extra fields, hostile strings, odd numbers, broken JSON, wrong content
// types, oversized bodies, strange path ids and query parameters, other users' ids and tokens; on
// the multipart routes also empty files, a wrong or missing closing boundary and unknown fields).
// Whatever is sent: never a 5xx, always the envelope, a 422 names its field, no stack, SQL or file
// path in the answer, no other user's data, and an answer in bounded time.
//
// Seeded and reproducible: fast-check prints the seed and path of a failure; re-run it with
// FUZZ_SEED=<seed>. FUZZ_RUNS sets the number of requests per operation (default 20; more for a
// deeper run, e.g. FUZZ_RUNS=500 npm test -- fuzz).
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import {
  brokenValue,
  hostileStrings,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
  oddNumbers,
  resolve,
  validValue,
} from './openapi-arbitraries.js';
import { sendThenRead } from './raw-http.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
/** Generous: it is here to catch a hang or a runaway query, not to time anything. */
const MAX_ANSWER_MS = 10_000;
/** Text that must never reach a client: stack frames, file paths, SQL and driver errors. */
const LEAKS =
  /\bat [^\s]+ \(|\.ts:\d+|\.js:\d+|node_modules|\/work\/|\/home\/|\/tmp\/|\bSELECT\b|\bINSERT INTO\b|\bUPDATE\b.+\bSET\b|\bviolates\b|duplicate key|syntax error at|relation "|column "/;
const STRANGE_IDS = [
  '0',
  '-1',
  '1.5',
  '1e3',
  'abc',
  '%00',
  '%ZZ',
  '%F0%9F%98%80',
  '9'.repeat(40),
  '2147483648',
  '..%2F..%2Fetc%2Fpasswd',
  '%20%31',
  'null',
];
const MARKER_A = 'Amarqueur';
const MARKER_B = 'Bmarqueur';

type Auth = 'A' | 'B' | 'admin' | 'none' | 'garbage' | 'malformed';
type BodyKind =
  | 'valid'
  | 'broken'
  | 'badjson'
  | 'badbytes'
  | 'wrongtype'
  | 'oversized'
  | 'empty'
  | 'none'
  // Multipart forms only (a JSON route sends its valid body instead):
  | 'emptyfile'
  | 'badboundary'
  | 'unclosed'
  | 'extrafield';

interface FuzzRequest {
  auth: Auth;
  path: Record<string, string>;
  query: [string, string][];
  bodyKind: BodyKind;
  body: unknown;
  idempotencyKey: string | null;
}

interface Operation {
  method: string;
  path: string;
  operation: OpenApiOperation;
}

interface FuzzContext {
  t: TestApp;
  document: OpenApiDocument;
  users: Partial<Record<'A' | 'B' | 'admin', SignedIn>>;
  knownIds: string[];
  /** Answers seen, by status: the run must reach handlers, not only the validators. */
  statuses: Map<number, number>;
}

describe('schema fuzzing of every route', () => {
  const ctx = { users: {}, knownIds: ['1', '2', '3'], statuses: new Map() } as unknown as FuzzContext;

  beforeAll(async () => {
    const t = await createTestApp({ config: { rateLimit: false } });
    ctx.t = t;
    ctx.users.A = await signIn(t, { credits: 200 });
    ctx.users.B = await signIn(t, { phone: '+237699887766', credits: 20 });
    ctx.users.admin = await signIn(t, { role: 'admin' });
    // Each user owns a pronostic with a marker only they may see.
    for (const [who, marker] of [
      ['A', MARKER_A],
      ['B', MARKER_B],
    ] as const) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/user/pronostic/create',
        headers: ctx.users[who]?.headers,
        payload: { type_id: 1, teams_details: { home: `${marker} FC`, away: 'Visiteurs', league: 'Ligue' } },
      });
      expect(created.statusCode).toBe(201);
      ctx.knownIds.push(String(created.json().data.pronostic.id));
    }
    ctx.document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  }, 60_000);
  afterAll(() => ctx.t?.close());

  it('answers every generated request without a 5xx, with the envelope, and leaks nothing', async () => {
    const operations = operationsOf(ctx.document);
    expect(operations.length).toBeGreaterThan(10);
    for (const op of operations) {
      // An event stream that opens never ends by design (test/events/stream.test.ts reads them over
      // a socket): here it gets every request that must be refused before it starts.
      const requests = isEventStream(op)
        ? requestArbitrary(ctx, op).filter((request) => !['A', 'B', 'admin'].includes(request.auth))
        : requestArbitrary(ctx, op);
      await fc.assert(
        fc.asyncProperty(requests, (request) => sendAndCheck(ctx, op, request)),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
    // The generated requests got past the validators too: successes, refusals and field errors.
    const seen = (from: number, to: number) =>
      [...ctx.statuses].filter(([s]) => s >= from && s < to).reduce((n, [, c]) => n + c, 0);
    expect(seen(200, 300), 'successful answers').toBeGreaterThan(0);
    expect(ctx.statuses.get(422) ?? 0, 'field errors').toBeGreaterThan(0);
    expect(ctx.statuses.get(401) ?? 0, 'refused tokens').toBeGreaterThan(0);
    expect(ctx.statuses.get(403) ?? 0, 'refused roles or owners').toBeGreaterThan(0);
  }, 600_000);

  it('oversized and chunked bodies over a real socket: each answer reaches a client that reads after sending', async () => {
    await ctx.t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.t.app.server.address() as { port: number }).port;
    const limit = ctx.t.config.bodyLimitBytes;
    const withBody = operationsOf(ctx.document).filter((op) => op.operation.requestBody);
    expect(withBody.length).toBeGreaterThan(5);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...withBody),
        fc.boolean(),
        fc.integer({ min: 1, max: 512 * 1024 }),
        fc.constantFrom<Auth>('A', 'none'),
        async (op, chunked, extra, auth) => {
          const url = op.path.replace(/\{[^}]+\}/g, '1');
          const size = limit + extra;
          const piece = Buffer.alloc(16 * 1024, 'a');
          const pieces: Buffer[] = [];
          for (let sent = 0; sent < size; sent += piece.length) {
            const part = piece.subarray(0, Math.min(piece.length, size - sent));
            pieces.push(
              chunked
                ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')])
                : part,
            );
          }
          if (chunked) pieces.push(Buffer.from('0\r\n\r\n'));
          const multipart = Boolean(op.operation.requestBody?.content['multipart/form-data']);
          const head = [
            `${op.method} ${url} HTTP/1.1`,
            'Host: fuzz',
            `Content-Type: ${multipart ? 'multipart/form-data; boundary=x' : 'application/json'}`,
            chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`,
            ...(auth === 'A' ? [`Authorization: Bearer ${ctx.users.A?.token}`] : []),
            '',
            '',
          ].join('\r\n');
          const answer = await sendThenRead(port, head, pieces);
          const where = `${op.method} ${url} (${auth}, ${chunked ? 'chunked' : 'content-length'} ${size} B)`;
          expect(answer.writeError, `${where}: the client could not send its body`).toBeNull();
          expect(answer.status, `${where}: ${answer.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
          expect(answer.status, where).toBeLessThan(500);
          expect(JSON.parse(answer.body), `${where}: envelope`).toHaveProperty('message');
        },
      ),
      { numRuns: Math.max(10, RUNS), seed: SEED, endOnFailure: true },
    );
  }, 300_000);
});

describe('the fuzzer itself', () => {
  it('finds a route that answers 500 on a quote in a string, and prints a seed to replay it', async () => {
    const t = await createTestApp({
      config: { rateLimit: false },
      beforeReady(app) {
        app.post(
          '/api/probe',
          {
            schema: {
              body: {
                type: 'object',
                required: ['name'],
                properties: { name: { type: 'string', maxLength: 80000 } },
              },
            },
          },
          async (request) => {
            const { name } = request.body as { name: string };
            if (name.includes("'")) throw new Error('planted failure');
            return { user: null, message: 'ok', data: [], errors: [] };
          },
        );
      },
    });
    try {
      const document = (
        await t.app.inject({ method: 'GET', url: '/api/openapi.json' })
      ).json() as OpenApiDocument;
      const ctx: FuzzContext = { t, document, users: {}, knownIds: ['1'], statuses: new Map() };
      const probe = operationsOf(document).find((op) => op.path === '/api/probe');
      expect(probe).toBeDefined();
      const outcome = await fc.check(
        fc.asyncProperty(requestArbitrary(ctx, probe as Operation), (request) =>
          sendAndCheck(ctx, probe as Operation, request),
        ),
        { numRuns: 300, seed: 42 },
      );
      expect(outcome.failed).toBe(true);
      expect(fc.defaultReportMessage(outcome)).toMatch(/seed: 42/);
    } finally {
      await t.close();
    }
  }, 120_000);
});

/** A route whose success is a `text/event-stream` (GET /api/user/events, GET /api/admin/events). */
function isEventStream(op: Operation): boolean {
  return Boolean(op.operation.responses?.['200']?.content?.['text/event-stream']);
}

function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (path.startsWith('/api')) operations.push({ method: method.toUpperCase(), path, operation });
    }
  }
  return operations;
}

function requestArbitrary(ctx: FuzzContext, op: Operation): fc.Arbitrary<FuzzRequest> {
  const parameters = op.operation.parameters ?? [];
  const pathModel: Record<string, fc.Arbitrary<string>> = {};
  for (const p of parameters.filter((q) => q.in === 'path')) {
    const valid = validValue(ctx.document, p.schema, p.name).map(String);
    pathModel[p.name] = fc.oneof(valid, fc.constantFrom(...ctx.knownIds), fc.constantFrom(...STRANGE_IDS));
  }
  const query = fc
    .tuple(
      ...parameters.filter((q) => q.in === 'query').map((q) => queryValue(ctx, q)),
      fc.option(
        fc.tuple(fc.constantFrom('inconnu', 'page[]', '__proto__'), fc.constantFrom(...hostileStrings)),
      ),
    )
    .map((pairs) => pairs.filter((pair): pair is [string, string] => pair !== null));
  const { schema, required } = bodySchema(ctx, op.operation);
  const validBody = schema ? validValue(ctx.document, schema) : fc.constant({});
  const authArbitrary: fc.Arbitrary<Auth> =
    op.path === '/api/user/logout'
      ? fc.constantFrom('none', 'garbage', 'malformed') // a real token would end the run's sessions
      : fc.constantFrom('A', 'A', 'B', 'admin', 'none', 'garbage', 'malformed');
  return fc.record({
    auth: authArbitrary,
    path: fc.record(pathModel),
    query,
    bodyKind: fc.constantFrom<BodyKind>(
      ...(schema ? (['valid', 'valid', 'broken', 'broken'] as const) : (['none', 'none'] as const)),
      'badjson',
      'badbytes',
      'wrongtype',
      'oversized',
      'empty',
      ...(op.operation.requestBody?.content['multipart/form-data']
        ? (['emptyfile', 'badboundary', 'unclosed', 'extrafield'] as const)
        : []),
    ),
    body: fc.oneof(validBody, brokenValue(validBody, required)),
    idempotencyKey: fc.option(fc.oneof(fc.uuid(), fc.constantFrom('k'.repeat(300), '\u0000', 'é', ' ')), {
      freq: 2,
    }),
  });
}

function queryValue(ctx: FuzzContext, parameter: OpenApiParameter): fc.Arbitrary<[string, string] | null> {
  const valid = validValue(ctx.document, parameter.schema, parameter.name).map((v) => String(v));
  const broken = fc.oneof(
    fc.constantFrom(...hostileStrings),
    fc.constantFrom(...oddNumbers).map((v) => (typeof v === 'string' ? v : JSON.stringify(v))),
  );
  return fc.option(
    fc.oneof(valid, valid, broken).map((value): [string, string] => [parameter.name, value]),
    { freq: 2 },
  );
}

function bodySchema(
  ctx: FuzzContext,
  operation: OpenApiOperation,
): { schema: JsonSchema | undefined; required: string[] } {
  const content = operation.requestBody?.content ?? {};
  const media = content['application/json'] ?? content['multipart/form-data'];
  if (!media) return { schema: undefined, required: [] };
  const schema = resolve(ctx.document, media.schema);
  return { schema, required: schema.required ?? [] };
}

async function sendAndCheck(ctx: FuzzContext, op: Operation, request: FuzzRequest): Promise<void> {
  const url = buildUrl(op.path, request);
  const headers: Record<string, string> = {};
  const user =
    request.auth === 'A' || request.auth === 'B' || request.auth === 'admin'
      ? ctx.users[request.auth]
      : undefined;
  if (user) headers.authorization = `Bearer ${user.token}`;
  if (request.auth === 'garbage') headers.authorization = 'Bearer 0000not-a-token';
  if (request.auth === 'malformed') headers.authorization = 'Basic dXNlcjpwYXNz';
  if (request.idempotencyKey !== null) headers['idempotency-key'] = asHeader(request.idempotencyKey);
  const multipart = Boolean(op.operation.requestBody?.content['multipart/form-data']);
  const payload = bodyOf(request, headers, multipart);

  const started = performance.now();
  const response = await ctx.t.app.inject({
    method: op.method as 'GET',
    url,
    headers,
    ...(payload === undefined ? {} : { payload }),
  });
  const elapsed = performance.now() - started;
  ctx.statuses.set(response.statusCode, (ctx.statuses.get(response.statusCode) ?? 0) + 1);
  const where = `${op.method} ${url} (${request.auth}, body ${request.bodyKind}) → ${response.statusCode}`;

  expect(elapsed, `${where}: answered in ${Math.round(elapsed)} ms`).toBeLessThan(MAX_ANSWER_MS);
  expect(response.statusCode, `${where}: ${response.body.slice(0, 500)}`).toBeLessThan(500);
  expect(response.body, `${where}: leaks internals`).not.toMatch(LEAKS);
  if (request.auth !== 'B' && request.auth !== 'admin') {
    expect(response.body, `${where}: shows another user's data`).not.toContain(MARKER_B);
    expect(response.body, `${where}: shows another user's phone`).not.toContain(ctx.users.B?.phone);
  }
  if (request.auth === 'B') expect(response.body, `${where}: shows A's data`).not.toContain(MARKER_A);

  const type = String(response.headers['content-type'] ?? '');
  if (!type.includes('application/json')) {
    // Only served files answer something else than the envelope, and never with an error status.
    expect(response.statusCode, `${where}: a non-JSON answer (${type})`).toBeLessThan(300);
    return;
  }
  // A JSON download (the account's data export) is a served file too: no envelope, never an error.
  if (String(response.headers['content-disposition'] ?? '').startsWith('attachment')) {
    expect(response.statusCode, `${where}: an attachment`).toBeLessThan(300);
    return;
  }
  const body = response.json() as Record<string, unknown>;
  for (const key of ['user', 'message', 'data']) expect(body, `${where}: envelope`).toHaveProperty(key);
  expect(typeof body.message, `${where}: message`).toBe('string');
  const otp = op.path.startsWith('/api/otp/');
  if (!otp || response.statusCode === 422) expect(body, `${where}: envelope`).toHaveProperty('errors');
  if (response.statusCode === 422) {
    const errors = body.errors as Record<string, unknown>;
    expect(typeof errors === 'object' && errors !== null && !Array.isArray(errors), `${where}: errors`).toBe(
      true,
    );
    const fields = Object.keys(errors);
    expect(fields.length, `${where}: a 422 names its field`).toBeGreaterThan(0);
    for (const field of fields) {
      expect(field.length, `${where}: field name`).toBeGreaterThan(0);
      const messages = errors[field];
      expect(Array.isArray(messages) && messages.length > 0, `${where}: messages of ${field}`).toBe(true);
    }
  }
}

function buildUrl(template: string, request: FuzzRequest): string {
  // Path values are inserted as sent on the wire: the strange ones are already percent-encoded.
  const path = template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = request.path[name] ?? '1';
    return STRANGE_IDS.includes(value) ? value : encodeURIComponent(value);
  });
  if (request.query.length === 0) return path;
  const search = request.query
    .map(
      ([k, v]) =>
        `${encodeURIComponent(k)}=${v === '%ZZ' || v === '%00' ? v : encodeURIComponent(asHeader(v))}`,
    )
    .join('&');
  return `${path}?${search}`;
}

function bodyOf(
  request: FuzzRequest,
  headers: Record<string, string>,
  multipart: boolean,
): string | Buffer | undefined {
  switch (request.bodyKind) {
    case 'none':
      return undefined;
    case 'valid':
    case 'broken':
    case 'emptyfile':
    case 'badboundary':
    case 'unclosed':
    case 'extrafield':
      if (multipart) return multipartBody(request.body, headers, request.bodyKind);
      headers['content-type'] = 'application/json';
      return JSON.stringify(request.body ?? null);
    case 'badjson':
      headers['content-type'] = 'application/json';
      return '{"amount": 10,, "phone": ';
    case 'badbytes':
      headers['content-type'] = 'application/json';
      return Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]);
    case 'wrongtype':
      headers['content-type'] = 'text/xml';
      return '<a>1</a>';
    case 'oversized':
      headers['content-type'] = multipart ? 'multipart/form-data; boundary=x' : 'application/json';
      return `{"x":"${'a'.repeat(6 * 1024 * 1024)}"}`;
    case 'empty':
      headers['content-type'] = multipart ? 'multipart/form-data' : 'application/json';
      return '';
  }
}

/** A header value Node accepts (no control characters, Latin-1): what a client can actually send. */
function asHeader(value: string): string {
  return value.replace(/[^\u0020-\u007e]/g, '?');
}

/**
 * A multipart body: each field of a generated object as a text part, plus a small file part under
 * each file name the routes take — empty with `emptyfile`; with `extrafield` an unknown text field
 * and no file; with `badboundary` the header names another boundary; with `unclosed` no closing one.
 */
function multipartBody(value: unknown, headers: Record<string, string>, kind: BodyKind): Buffer {
  const boundary = `----fuzz${Math.random().toString(16).slice(2)}`;
  headers['content-type'] =
    `multipart/form-data; boundary=${kind === 'badboundary' ? `${boundary}x` : boundary}`;
  const parts: Buffer[] = [];
  const fields = typeof value === 'object' && value !== null ? Object.entries(value) : [['value', value]];
  if (kind === 'extrafield') fields.push(['inconnu', 'champ en trop']);
  for (const [name, field] of fields) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${asHeader(String(name))}"\r\n\r\n${
          typeof field === 'string' ? field : JSON.stringify(field)
        }\r\n`,
      ),
    );
  }
  const file =
    kind === 'emptyfile'
      ? Buffer.alloc(0)
      : Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]);
  for (const name of kind === 'extrafield' ? [] : ['attachment', 'avatar']) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      file,
      Buffer.from('\r\n'),
    );
  }
  if (kind !== 'unclosed') parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}
