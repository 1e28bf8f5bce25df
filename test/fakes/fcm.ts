// A local stand-in for Firebase Cloud Messaging's HTTP v1 API and Google's OAuth token endpoint.
// The token endpoint checks the service account's JWT the way Google does (RS256 signature against
// the key pair's public key, iss, scope, aud, a lifetime of at most an hour) and hands out access
// tokens; messages:send checks the project in the path, the bearer token (one it issued and has not
// revoked), and the message (a token, a notification, data values that are all strings), answers
// with FCM's documented bodies, records what it got, and can be told to fail.
import { createPublicKey, generateKeyPairSync, type KeyObject, verify } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { parseJson, readBody, sendJson, serveOnLoopback } from './http.js';

export const FCM_PROJECT = 'pronostics-test';
export const FCM_CLIENT_EMAIL = 'push-sender@pronostics-test.iam.gserviceaccount.com';
const SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';

/** A service account key as the Firebase console gives it, with a fresh key pair (once per run). */
let keyPair: { privateKey: string; publicKey: KeyObject } | undefined;
export function testKeyPair() {
  if (!keyPair) {
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    keyPair = {
      privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      publicKey: createPublicKey(pair.publicKey.export({ type: 'spki', format: 'pem' })),
    };
  }
  return keyPair;
}

/** FCM's documented error answers, by name. */
export const FCM_ERRORS = {
  unregistered: {
    status: 404,
    body: {
      code: 404,
      message: 'Requested entity was not found.',
      status: 'NOT_FOUND',
      details: [{ '@type': FCM_ERROR, errorCode: 'UNREGISTERED' }],
    },
  },
  'not-found': {
    status: 404,
    body: { code: 404, message: 'Requested entity was not found.', status: 'NOT_FOUND' },
  },
  'invalid-token': {
    status: 400,
    body: {
      code: 400,
      message: 'The registration token is not a valid FCM registration token',
      status: 'INVALID_ARGUMENT',
      details: [{ '@type': FCM_ERROR, errorCode: 'INVALID_ARGUMENT' }],
    },
  },
  'invalid-data': {
    status: 400,
    body: {
      code: 400,
      message: "Invalid value at 'message.data[0].value' (TYPE_STRING), 12",
      status: 'INVALID_ARGUMENT',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [
            {
              field: 'message.data[0].value',
              description: "Invalid value at 'message.data[0].value' (TYPE_STRING), 12",
            },
          ],
        },
      ],
    },
  },
  'sender-mismatch': {
    status: 403,
    body: {
      code: 403,
      message: 'SenderId mismatch',
      status: 'PERMISSION_DENIED',
      details: [{ '@type': FCM_ERROR, errorCode: 'SENDER_ID_MISMATCH' }],
    },
  },
  quota: {
    status: 429,
    body: {
      code: 429,
      message: 'Quota exceeded for quota metric',
      status: 'RESOURCE_EXHAUSTED',
      details: [{ '@type': FCM_ERROR, errorCode: 'QUOTA_EXCEEDED' }],
    },
  },
  unavailable: {
    status: 503,
    body: {
      code: 503,
      message: 'The service is currently unavailable.',
      status: 'UNAVAILABLE',
      details: [{ '@type': FCM_ERROR, errorCode: 'UNAVAILABLE' }],
    },
  },
  internal: {
    status: 500,
    body: {
      code: 500,
      message: 'Internal error encountered.',
      status: 'INTERNAL',
      details: [{ '@type': FCM_ERROR, errorCode: 'INTERNAL' }],
    },
  },
} as const;

export type FcmErrorName = keyof typeof FCM_ERRORS;

/**
 * What the next sends get, in order (then `ok`). `expired-token`: the access token is revoked before
 * the request is checked, so it gets FCM's 401 (a refresh then works).
 */
export type FcmBehaviour =
  | 'ok'
  | 'expired-token'
  | FcmErrorName
  | { error: FcmErrorName; retryAfter: string };

export interface FcmSend {
  token: string;
  message: Record<string, unknown>;
  accessToken: string;
}

export interface FcmFake {
  baseUrl: string;
  /** The service account key pointing at this fake's token endpoint. */
  serviceAccount: { projectId: string; clientEmail: string; privateKey: string; tokenUri: string };
  /** The same key as the JSON file a console gives. */
  serviceAccountJson: string;
  /** Messages accepted (200), in order. */
  delivered: FcmSend[];
  /** Every messages:send request, whatever its answer. */
  sendRequests: number;
  tokenRequests: number;
  /** What the fake found wrong (empty when the driver did everything right). */
  problems: string[];
  /** Answers for the next sends, in order. */
  respond(...behaviours: FcmBehaviour[]): void;
  /** Every send to this device token gets this answer (a dead token), until cleared with undefined. */
  forToken(token: string, behaviour: FcmBehaviour | undefined): void;
  /** The token endpoint's next answers: an OAuth error (status) instead of a token. */
  failTokens(...statuses: number[]): void;
  /** Seconds the next access tokens live (expires_in). */
  tokenLifetime: number;
  close(): Promise<void>;
}

function decodePart(part: string | undefined): Record<string, unknown> | undefined {
  if (!part) return undefined;
  const parsed = parseJson(Buffer.from(part, 'base64url').toString('utf8'));
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
}

export async function startFcmFake(): Promise<FcmFake> {
  const { privateKey, publicKey } = testKeyPair();
  const queue: FcmBehaviour[] = [];
  const perToken = new Map<string, FcmBehaviour>();
  const tokenFailures: number[] = [];
  const valid = new Set<string>();
  let issued = 0;
  let messageId = 0;

  const fake: FcmFake = {
    baseUrl: '',
    serviceAccount: { projectId: FCM_PROJECT, clientEmail: FCM_CLIENT_EMAIL, privateKey, tokenUri: '' },
    serviceAccountJson: '',
    delivered: [],
    sendRequests: 0,
    tokenRequests: 0,
    problems: [],
    respond: (...behaviours) => queue.push(...behaviours),
    forToken(token, behaviour) {
      if (behaviour === undefined) perToken.delete(token);
      else perToken.set(token, behaviour);
    },
    failTokens: (...statuses) => tokenFailures.push(...statuses),
    tokenLifetime: 3599,
    close: async () => {},
  };

  function checkAssertion(assertion: string, tokenUri: string): string | undefined {
    const [header, claims, signature] = assertion.split('.');
    const head = decodePart(header);
    const body = decodePart(claims);
    if (!head || !body || !signature) return 'assertion is not a JWT';
    if (head.alg !== 'RS256') return `JWT alg ${String(head.alg)}`;
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${claims}`),
      publicKey,
      Buffer.from(signature, 'base64url'),
    );
    if (!signed) return 'JWT signature does not verify';
    if (body.iss !== FCM_CLIENT_EMAIL) return `JWT iss ${String(body.iss)}`;
    if (body.scope !== SCOPE) return `JWT scope ${String(body.scope)}`;
    if (body.aud !== tokenUri) return `JWT aud ${String(body.aud)}`;
    const iat = Number(body.iat);
    const exp = Number(body.exp);
    if (!Number.isInteger(iat) || !Number.isInteger(exp) || exp <= iat || exp - iat > 3600) {
      return `JWT lifetime iat=${String(body.iat)} exp=${String(body.exp)}`;
    }
    return undefined;
  }

  function checkMessage(body: unknown): string | undefined {
    const message = (body as { message?: Record<string, unknown> } | undefined)?.message;
    if (!message || typeof message !== 'object') return 'no message';
    if (typeof message.token !== 'string' || message.token === '') return 'no message.token';
    const notification = message.notification as Record<string, unknown> | undefined;
    if (typeof notification?.title !== 'string' || typeof notification?.body !== 'string') {
      return 'notification.title and body must be strings';
    }
    const data = message.data as Record<string, unknown> | undefined;
    if (data && Object.values(data).some((value) => typeof value !== 'string'))
      return 'data values must be strings';
    return undefined;
  }

  const server = await serveOnLoopback(async (req: IncomingMessage, res) => {
    const raw = await readBody(req);
    const path = req.url ?? '';
    if (req.method === 'POST' && path === '/token') {
      fake.tokenRequests += 1;
      if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
        fake.problems.push(`token: content-type ${String(req.headers['content-type'])}`);
      }
      const form = new URLSearchParams(raw);
      const failure = tokenFailures.shift();
      if (failure) {
        sendJson(res, failure, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
        return;
      }
      const problem =
        form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer'
          ? `grant_type ${String(form.get('grant_type'))}`
          : checkAssertion(form.get('assertion') ?? '', fake.serviceAccount.tokenUri);
      if (problem) {
        fake.problems.push(`token: ${problem}`);
        sendJson(res, 400, { error: 'invalid_grant', error_description: problem });
        return;
      }
      issued += 1;
      const token = `ya29.fake-access-token-${issued}`;
      valid.add(token);
      sendJson(res, 200, { access_token: token, expires_in: fake.tokenLifetime, token_type: 'Bearer' });
      return;
    }
    const match = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path);
    if (req.method !== 'POST' || !match) {
      fake.problems.push(`unexpected ${req.method} ${path}`);
      sendJson(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
      return;
    }
    fake.sendRequests += 1;
    const otherProject = match[1] !== FCM_PROJECT;
    if (otherProject) fake.problems.push(`project ${match[1]}`);
    const body = parseJson(raw);
    const messageToken = String((body as { message?: { token?: unknown } })?.message?.token ?? '');
    let behaviour = perToken.get(messageToken) ?? queue.shift() ?? 'ok';
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    if (behaviour === 'expired-token') {
      valid.delete(bearer);
      behaviour = 'ok';
    }
    if (!valid.has(bearer)) {
      sendJson(res, 401, {
        error: {
          code: 401,
          message:
            'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
          status: 'UNAUTHENTICATED',
        },
      });
      return;
    }
    if (otherProject) {
      // FCM answers a project it does not know (a wrong FCM_PROJECT_ID) as it answers a dead token.
      sendJson(res, 404, { error: FCM_ERRORS['not-found'].body });
      return;
    }
    const problem = checkMessage(body);
    if (problem) {
      fake.problems.push(problem);
      sendJson(res, 400, { error: { code: 400, message: problem, status: 'INVALID_ARGUMENT' } });
      return;
    }
    if (behaviour !== 'ok') {
      const name = typeof behaviour === 'string' ? behaviour : behaviour.error;
      const { status, body: error } = FCM_ERRORS[name];
      if (typeof behaviour !== 'string') res.setHeader('retry-after', behaviour.retryAfter);
      sendJson(res, status, { error });
      return;
    }
    messageId += 1;
    fake.delivered.push({
      token: messageToken,
      message: (body as { message: Record<string, unknown> }).message,
      accessToken: bearer,
    });
    sendJson(res, 200, { name: `projects/${FCM_PROJECT}/messages/${messageId}` });
  });

  fake.baseUrl = server.url;
  fake.serviceAccount.tokenUri = `${server.url}/token`;
  fake.serviceAccountJson = JSON.stringify({
    type: 'service_account',
    project_id: FCM_PROJECT,
    private_key_id: 'abc123',
    private_key: privateKey,
    client_email: FCM_CLIENT_EMAIL,
    client_id: '1234567890',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: fake.serviceAccount.tokenUri,
  });
  fake.close = server.close;
  return fake;
}
