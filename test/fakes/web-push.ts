// A local stand-in for a browser's push service (the endpoint a PushSubscription names), speaking
// Web Push as the RFCs write it, and a browser's side of the subscription:
// - RFC 8030: `POST <endpoint>` with a `TTL` header, answered 201 with a `Location`; 404/410 for a
//   subscription that is gone, 429 with Retry-After, 413 for a payload over 4096 bytes.
// - RFC 8292 (VAPID): `Authorization: vapid t=<JWT>, k=<public key>`: an ES256 JWT whose `aud` is the
//   endpoint's origin, `exp` at most 24 hours ahead, a `sub` (mailto: or https:), signed by `k`,
//   and `k` the applicationServerKey the subscription was made with (403 otherwise, as services do).
// - RFC 8291 + RFC 8188: the body is `aes128gcm`, encrypted to the subscription's keys; the fake
//   holds the browser's private key and auth secret and decrypts it, by its own code rather than
//   the sender's library, so a wrong encryption is caught.
// It serves HTTPS on loopback with a certificate made for the run (openssl, for 127.0.0.1 and
// localhost), whose authority it hands out for the sender to trust.
import { execFileSync } from 'node:child_process';
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface WebPushDelivery {
  /** The subscription's id (the endpoint's last path segment). */
  id: string;
  ttl: number;
  urgency: string | undefined;
  /** The decrypted payload, parsed. */
  payload: unknown;
}

export interface BrowserSubscription {
  id: string;
  /** What `subscription.toJSON()` gives a page: the `webpush` device's token is its JSON. */
  json: { endpoint: string; keys: { p256dh: string; auth: string } };
}

export interface WebPushFake {
  /** `https://127.0.0.1:<port>` */
  origin: string;
  /** This fake's certificate, for the sender to trust (its own authority). */
  ca: string;
  /** TCP connections this fake accepted, answered or not. */
  connections(): number;
  /** A browser subscribing with `applicationServerKey` (the VAPID public key, base64url). */
  subscribe(applicationServerKey: string): BrowserSubscription;
  /** The subscription is gone (unsubscribed, browser data cleared): its endpoint answers 410. */
  expire(id: string): void;
  /**
   * The next POSTs get these statuses (then normal handling); 429 comes with Retry-After: 7, and 0
   * is no answer at all (the request is held until the fake closes: a stalled push service).
   */
  respond(...statuses: number[]): void;
  delivered: WebPushDelivery[];
  /** What the fake found wrong in a request (empty when the sender did everything right). */
  problems: string[];
  close(): Promise<void>;
}

/** A certificate for 127.0.0.1, valid a day, made once per run. */
let certificate: { key: string; cert: string } | undefined;
function loopbackCertificate(): { key: string; cert: string } {
  if (!certificate) {
    const dir = mkdtempSync(join(tmpdir(), 'webpush-cert-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    certificate = {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
    rmSync(dir, { recursive: true, force: true });
  }
  return certificate;
}

function decodeJwtPart(part: string | undefined): Record<string, unknown> | undefined {
  if (!part) return undefined;
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The P-256 public key of an uncompressed point (65 bytes: 0x04, x, y), as a KeyObject. */
function p256Key(point: Buffer) {
  return createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
}

/** RFC 8291's decryption of one aes128gcm record (a push message is one record). */
function decrypt(body: Buffer, browserKey: ReturnType<typeof createECDH>, authSecret: Buffer): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const ecdhSecret = browserKey.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), browserKey.getPublicKey(), senderKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  // The last record: the data, the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  if (padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

export async function startWebPushFake(): Promise<WebPushFake> {
  const { key, cert } = loopbackCertificate();
  const subscriptions = new Map<
    string,
    { browserKey: ReturnType<typeof createECDH>; authSecret: Buffer; serverKey: string; gone: boolean }
  >();
  const queued: number[] = [];
  let location = 0;
  let connections = 0;

  const fake: WebPushFake = {
    origin: '',
    ca: cert,
    connections: () => connections,
    subscribe(applicationServerKey) {
      const id = randomBytes(12).toString('base64url');
      const browserKey = createECDH('prime256v1');
      browserKey.generateKeys();
      const authSecret = randomBytes(16);
      subscriptions.set(id, { browserKey, authSecret, serverKey: applicationServerKey, gone: false });
      return {
        id,
        json: {
          endpoint: `${fake.origin}/push/${id}`,
          keys: {
            p256dh: browserKey.getPublicKey().toString('base64url'),
            auth: authSecret.toString('base64url'),
          },
        },
      };
    },
    expire(id) {
      const subscription = subscriptions.get(id);
      if (subscription) subscription.gone = true;
    },
    respond: (...statuses) => queued.push(...statuses),
    delivered: [],
    problems: [],
    close: async () => {},
  };

  /** The VAPID header's fault, or undefined when it is right for this subscription. */
  function vapidFault(
    header: string | undefined,
    serverKey: string,
  ): { status: number; why: string } | undefined {
    const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
    if (!match) return { status: 401, why: `Authorization is not "vapid t=…, k=…": ${String(header)}` };
    const [, jwt = '', publicKey = ''] = match;
    const [head, claims, signature] = jwt.split('.');
    const decodedHead = decodeJwtPart(head);
    const decodedClaims = decodeJwtPart(claims);
    if (!decodedHead || !decodedClaims || !signature)
      return { status: 401, why: 'the VAPID token is not a JWT' };
    if (decodedHead.alg !== 'ES256') return { status: 401, why: `JWT alg ${String(decodedHead.alg)}` };
    const signed = verify(
      'sha256',
      Buffer.from(`${head}.${claims}`),
      { key: p256Key(Buffer.from(publicKey, 'base64url')), dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url'),
    );
    if (!signed) return { status: 401, why: 'the VAPID JWT does not verify with k' };
    if (decodedClaims.aud !== fake.origin)
      return { status: 401, why: `JWT aud ${String(decodedClaims.aud)}` };
    const exp = Number(decodedClaims.exp);
    const now = Date.now() / 1000;
    if (!Number.isInteger(exp) || exp <= now || exp > now + 24 * 3600) {
      return { status: 401, why: `JWT exp ${String(decodedClaims.exp)}` };
    }
    if (typeof decodedClaims.sub !== 'string' || !/^(mailto:|https:)/.test(decodedClaims.sub)) {
      return { status: 401, why: `JWT sub ${String(decodedClaims.sub)}` };
    }
    if (publicKey !== serverKey)
      return { status: 403, why: 'k is not the key the subscription was made with' };
    return undefined;
  }

  const server = createServer({ key, cert }, async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const answer = (status: number, headers: Record<string, string> = {}) => {
      response.writeHead(status, headers);
      response.end();
    };
    const queuedStatus = queued.shift();
    if (queuedStatus === 0) return;
    if (queuedStatus !== undefined) {
      return answer(queuedStatus, queuedStatus === 429 ? { 'retry-after': '7' } : {});
    }
    const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(request.url ?? '')?.[1];
    const subscription = id === undefined ? undefined : subscriptions.get(id);
    if (request.method !== 'POST' || id === undefined || !subscription) return answer(404);
    if (subscription.gone) return answer(410);
    const fault = vapidFault(request.headers.authorization, subscription.serverKey);
    if (fault) {
      fake.problems.push(fault.why);
      return answer(fault.status);
    }
    const ttl = Number(request.headers.ttl);
    if (!Number.isInteger(ttl) || ttl < 0) {
      fake.problems.push(`TTL header ${String(request.headers.ttl)}`);
      return answer(400);
    }
    if (request.headers['content-encoding'] !== 'aes128gcm') {
      fake.problems.push(`Content-Encoding ${String(request.headers['content-encoding'])}`);
      return answer(415);
    }
    if (body.length > 4096) return answer(413);
    let payload: unknown;
    try {
      payload = JSON.parse(decrypt(body, subscription.browserKey, subscription.authSecret).toString('utf8'));
    } catch (error) {
      fake.problems.push(`payload: ${error instanceof Error ? error.message : String(error)}`);
      return answer(400);
    }
    const urgency = request.headers.urgency;
    fake.delivered.push({ id, ttl, urgency: typeof urgency === 'string' ? urgency : undefined, payload });
    location += 1;
    return answer(201, { location: `${fake.origin}/message/${location}` });
  });
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
