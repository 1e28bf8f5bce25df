// A local stand-in for NotchPay's payments API (../shared/INTEGRATIONS.md): it checks each request the
// way NotchPay would (the public key as Authorization, JSON bodies, the fields each call needs), keeps
// payments by our reference, answers NotchPay's documented bodies and errors, and can be told to fail.
// Payouts too: `POST /recipients`, `POST /transfers` (409 on a reused reference) and
// `GET /transfers/{reference}`, which also need the private key in `X-Grant` (403 without it).
// `signedNotchPayWebhook` builds the webhooks NotchPay sends, signed with the hash key.

import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, readBody, sendJson, serveOnLoopback } from './http.js';

export const NOTCHPAY_PUBLIC_KEY = 'pk_test.fake0123456789abcdefghijklmnopqrstuvwxyz';
export const NOTCHPAY_HASH_KEY = 'hsk_test.fake-webhook-hash-key-0123456789';
export const NOTCHPAY_PRIVATE_KEY = 'sk_test.fake-private-grant-key-0123456789';

const CHANNELS = ['cm.mtn', 'cm.orange', 'cm.mobile'];

/** NotchPay's wording of the HTTP statuses its error bodies carry. */
const STATUS_TEXT: Record<number, string> = {
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

export interface FakeNotchPayment {
  id: string;
  reference: string;
  amount: number;
  currency: string;
  status: string;
  customer: Record<string, unknown>;
  description: string;
  /** What the direct charges asked for, in order. */
  charges: { channel: string; phone: string }[];
}

/**
 * What the next valid requests get, in order; once the queue is empty every valid request is served.
 * `ok`: served as usual; `{status}`: that error (5xx, or 401/403/422 as NotchPay words them); `{rateLimit}`: a 429 with
 * `Retry-After: <seconds>` (none when null); `hang`: the request takes effect but no answer ever comes
 * (a lost answer); `stall`: neither effect nor answer; `drop`: the connection is cut before anything happens (a network error).
 */
export type NotchPayBehaviour =
  | 'ok'
  | { status: number }
  | { rateLimit: number | null }
  | 'hang'
  | 'stall'
  | 'drop';

export interface FakeNotchRecipient {
  id: string;
  name: string;
  phone: string;
  channel: string;
  account_number: string;
  country: string;
  reference: string;
}

/** A transfer: `pending` when created; the test moves it (`sent`, `complete`, `failed`…). */
export interface FakeNotchTransfer {
  id: string;
  reference: string;
  amount: number;
  currency: string;
  channel: string;
  recipient: string;
  description: string;
  status: string;
}

export interface NotchPayRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface NotchPayFake {
  baseUrl: string;
  publicKey: string;
  hashKey: string;
  requests: NotchPayRequest[];
  /** What the fake found wrong in requests (empty when the driver did everything right). */
  problems: string[];
  payments: Map<string, FakeNotchPayment>;
  recipients: Map<string, FakeNotchRecipient>;
  /** By our reference. */
  transfers: Map<string, FakeNotchTransfer>;
  respond(...behaviours: NotchPayBehaviour[]): void;
  /**
   * While on, every status read (`GET /payments/{ref}`, `GET /transfers/{ref}`) gets no answer at
   * all: a provider whose reads hang. Creates are served as usual.
   */
  hangReads(on: boolean): void;
  /** Status reads left without an answer so far (they hang until the fake closes). */
  readonly hungReads: number;
  /** What NotchPay says of a transfer from now on. */
  setTransfer(reference: string, change: Partial<Pick<FakeNotchTransfer, 'status' | 'amount'>>): void;
  /** A transfer NotchPay already knows (an earlier attempt created it): creating it again is a 409. */
  seedTransfer(
    transfer: Pick<FakeNotchTransfer, 'reference' | 'amount'> & Partial<FakeNotchTransfer>,
  ): FakeNotchTransfer;
  /** A payment NotchPay already knows (an earlier attempt created it): creating it again is a 409. */
  seedPayment(
    payment: Pick<FakeNotchPayment, 'reference' | 'amount'> & Partial<FakeNotchPayment>,
  ): FakeNotchPayment;
  /** What NotchPay says of a payment from now on (the payer confirmed, the operator refused…). */
  setPayment(
    reference: string,
    change: Partial<Pick<FakeNotchPayment, 'status' | 'amount' | 'currency'>>,
  ): void;
  close(): Promise<void>;
}

export async function startNotchPayFake(
  options: { chargeMethod?: 'POST' | 'PUT' } = {},
): Promise<NotchPayFake> {
  const chargeMethod = options.chargeMethod ?? 'POST';
  const requests: NotchPayRequest[] = [];
  const problems: string[] = [];
  const queue: NotchPayBehaviour[] = [];
  const payments = new Map<string, FakeNotchPayment>();
  const recipients = new Map<string, FakeNotchRecipient>();
  const transfers = new Map<string, FakeNotchTransfer>();
  let readsHang = false;
  let hungReads = 0;

  const server = await serveOnLoopback(async (req, res) => {
    const raw = await readBody(req);
    const method = req.method ?? '';
    const path = req.url ?? '';
    const body = raw === '' ? undefined : parseJson(raw);
    requests.push({ method, path, headers: req.headers, body });

    const refuse = (problem: string, status: number, message: string, errors?: Record<string, string[]>) => {
      problems.push(problem);
      sendError(res, status, message, errors);
    };
    if (req.headers.authorization !== NOTCHPAY_PUBLIC_KEY) {
      return refuse(`authorization ${req.headers.authorization}`, 401, 'Invalid API key');
    }
    if (raw !== '' && !req.headers['content-type']?.startsWith('application/json')) {
      return refuse(`content type ${req.headers['content-type']}`, 422, 'The body must be JSON');
    }
    if (raw !== '' && body === undefined) return refuse(`body is not JSON: ${raw}`, 422, 'Malformed JSON');

    const route = routeOf(method, path, chargeMethod);
    if (!route) return refuse(`unexpected ${method} ${path}`, 404, 'Route not found');
    const payout = route.kind === 'recipient' || route.kind === 'transfer' || route.kind === 'readTransfer';
    if (payout && req.headers['x-grant'] !== NOTCHPAY_PRIVATE_KEY) {
      return refuse(`x-grant ${req.headers['x-grant']}`, 403, 'Missing or invalid grant');
    }
    const invalid =
      route.kind === 'create'
        ? checkCreate(body)
        : route.kind === 'charge'
          ? checkCharge(body)
          : route.kind === 'recipient'
            ? checkRecipient(body)
            : route.kind === 'transfer'
              ? checkTransfer(body, recipients)
              : undefined;
    if (invalid) return refuse(invalid.problem, 422, 'The given data was invalid.', invalid.errors);

    if (readsHang && method === 'GET') {
      hungReads += 1;
      return;
    }
    const behaviour = queue.shift();
    if (behaviour === 'drop') return req.socket.destroy();
    if (behaviour === 'stall') return;
    if (typeof behaviour === 'object') {
      if ('rateLimit' in behaviour) {
        const headers: Record<string, string> =
          behaviour.rateLimit === null ? {} : { 'retry-after': String(behaviour.rateLimit) };
        return sendError(res, 429, 'Too many requests', undefined, headers);
      }
      return sendError(res, behaviour.status, STATUS_TEXT[behaviour.status] ?? 'Error');
    }

    const answer = serve(route, body as Record<string, unknown> | undefined);
    if (behaviour === 'hang') return;
    if (answer.error) return sendError(res, answer.status, answer.error);
    sendJson(res, answer.status, answer.body);
  });

  function serve(
    route: Route,
    body: Record<string, unknown> | undefined,
  ): { status: number; body?: unknown; error?: string } {
    if (route.kind === 'recipient') {
      const input = body as Record<string, string>;
      const recipient: FakeNotchRecipient = {
        id: `rcp.test_${randomBytes(8).toString('hex')}`,
        name: input.name ?? '',
        phone: input.phone ?? '',
        channel: input.channel ?? '',
        account_number: input.account_number ?? '',
        country: input.country ?? '',
        reference: input.reference ?? '',
      };
      recipients.set(recipient.id, recipient);
      return { status: 201, body: { status: 'Created', message: 'Recipient created', code: 201, recipient } };
    }
    if (route.kind === 'transfer') {
      const input = body as Record<string, unknown>;
      const reference = input.reference as string;
      if (transfers.has(reference))
        return { status: 409, error: 'A transfer with this reference already exists' };
      const transfer: FakeNotchTransfer = {
        id: `trf.test_${randomBytes(8).toString('hex')}`,
        reference,
        amount: input.amount as number,
        currency: input.currency as string,
        channel: input.channel as string,
        recipient: input.recipient as string,
        description: input.description as string,
        status: 'pending',
      };
      transfers.set(reference, transfer);
      return {
        status: 201,
        body: {
          status: 'Accepted',
          message: 'Transfer initialized',
          code: 201,
          transfer: transferOf(transfer),
        },
      };
    }
    if (route.kind === 'readTransfer') {
      const transfer = transfers.get(route.reference);
      if (!transfer) return { status: 404, error: 'Transfer not found' };
      return {
        status: 200,
        body: { code: 200, status: 'OK', message: 'Transfer retrieved', transfer: transferOf(transfer) },
      };
    }
    if (route.kind === 'create') {
      const input = body as Record<string, unknown>;
      const reference = input.reference as string;
      if (payments.has(reference))
        return { status: 409, error: 'A payment with this reference already exists' };
      const payment: FakeNotchPayment = {
        id: newId(),
        reference,
        amount: input.amount as number,
        currency: input.currency as string,
        status: 'pending',
        customer: input.customer as Record<string, unknown>,
        description: input.description as string,
        charges: [],
      };
      payments.set(reference, payment);
      return {
        status: 201,
        body: {
          status: 'Accepted',
          message: 'Payment initialized',
          code: 201,
          transaction: transactionOf(payment),
          authorization_url: authorizationUrl(payment),
        },
      };
    }
    if (!('reference' in route)) return { status: 404, error: 'Route not found' };
    const payment = payments.get(route.reference);
    if (!payment) return { status: 404, error: 'Payment not found' };
    if (route.kind === 'charge') {
      const data = (body as { channel: string; data: { phone: string } }) ?? {};
      payment.charges.push({ channel: data.channel, phone: data.data.phone });
      return {
        status: 202,
        body: {
          status: 'Accepted',
          message: 'Confirm the payment on your phone',
          code: 202,
          transaction: transactionOf(payment),
        },
      };
    }
    return {
      status: 200,
      body: {
        code: 200,
        status: 'OK',
        message: 'Payment retrieved',
        transaction: transactionOf(payment),
        authorization_url: authorizationUrl(payment),
      },
    };
  }

  return {
    baseUrl: server.url,
    publicKey: NOTCHPAY_PUBLIC_KEY,
    hashKey: NOTCHPAY_HASH_KEY,
    requests,
    problems,
    payments,
    recipients,
    transfers,
    respond: (...behaviours) => queue.push(...behaviours),
    hangReads(on) {
      readsHang = on;
    },
    get hungReads() {
      return hungReads;
    },
    setTransfer(reference, change) {
      const transfer = transfers.get(reference);
      if (!transfer) throw new Error(`the NotchPay fake has no transfer ${reference}`);
      Object.assign(transfer, change);
    },
    seedTransfer(seed) {
      const transfer: FakeNotchTransfer = {
        id: `trf.test_${randomBytes(8).toString('hex')}`,
        currency: 'XAF',
        channel: 'cm.mtn',
        recipient: 'rcp.seeded',
        description: 'Seeded',
        status: 'pending',
        ...seed,
      };
      transfers.set(transfer.reference, transfer);
      return transfer;
    },
    seedPayment(seed) {
      const payment: FakeNotchPayment = {
        id: newId(),
        currency: 'XAF',
        status: 'pending',
        customer: {},
        description: 'Seeded',
        charges: [],
        ...seed,
      };
      payments.set(payment.reference, payment);
      return payment;
    },
    setPayment(reference, change) {
      const payment = payments.get(reference);
      if (!payment) throw new Error(`the NotchPay fake has no payment ${reference}`);
      Object.assign(payment, change);
    },
    close: server.close,
  };
}

type Route =
  | { kind: 'create' | 'recipient' | 'transfer' }
  | { kind: 'charge' | 'read' | 'readTransfer'; reference: string };

function routeOf(method: string, path: string, chargeMethod: string): Route | undefined {
  if (path === '/payments' && method === 'POST') return { kind: 'create' };
  if (path === '/recipients' && method === 'POST') return { kind: 'recipient' };
  if (path === '/transfers' && method === 'POST') return { kind: 'transfer' };
  const transfer = /^\/transfers\/([^/?]+)$/.exec(path);
  if (transfer && method === 'GET')
    return { kind: 'readTransfer', reference: decodeURIComponent(transfer[1] as string) };
  const match = /^\/payments\/([^/?]+)$/.exec(path);
  if (!match) return undefined;
  const reference = decodeURIComponent(match[1] as string);
  if (method === 'GET') return { kind: 'read', reference };
  if (method === chargeMethod) return { kind: 'charge', reference };
  return undefined;
}

type Invalid = { problem: string; errors: Record<string, string[]> };

function invalidField(field: string, message: string, value: unknown): Invalid {
  return { problem: `${field} ${JSON.stringify(value)}`, errors: { [field]: [message] } };
}

/** NotchPay's checks on `POST /payments`. */
function checkCreate(body: unknown): Invalid | undefined {
  if (typeof body !== 'object' || body === null)
    return invalidField('amount', 'The amount field is required.', body);
  const input = body as Record<string, unknown>;
  if (!Number.isInteger(input.amount) || (input.amount as number) <= 0) {
    return invalidField('amount', 'The amount must be a whole number of XAF.', input.amount);
  }
  if (input.currency !== 'XAF')
    return invalidField('currency', 'The selected currency is invalid.', input.currency);
  if (typeof input.reference !== 'string' || input.reference === '' || input.reference.length > 100) {
    return invalidField('reference', 'The reference field is required.', input.reference);
  }
  if (typeof input.description !== 'string' || input.description === '') {
    return invalidField('description', 'The description field is required.', input.description);
  }
  const customer = input.customer as Record<string, unknown> | undefined;
  if (typeof customer !== 'object' || customer === null || (!customer.phone && !customer.email)) {
    return invalidField('customer', 'The customer needs an email or a phone.', customer);
  }
  if (customer.phone !== undefined && !/^\+?[1-9]\d{7,14}$/.test(String(customer.phone))) {
    return invalidField('customer.phone', 'The phone number is invalid.', customer.phone);
  }
  return undefined;
}

/** NotchPay's checks on the direct mobile-money charge. */
function checkCharge(body: unknown): Invalid | undefined {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (!CHANNELS.includes(input.channel as string)) {
    return invalidField('channel', 'The selected channel is invalid.', input.channel);
  }
  const data = input.data as Record<string, unknown> | undefined;
  if (typeof data?.phone !== 'string' || !/^2376\d{8}$/.test(data.phone)) {
    // NotchPay's messages echo the number they refuse (the driver must keep it out of its errors).
    return invalidField(
      'data.phone',
      `The phone ${String(data?.phone)} is not a Cameroon mobile number.`,
      data?.phone,
    );
  }
  return undefined;
}

/** NotchPay's checks on `POST /recipients`. */
function checkRecipient(body: unknown): Invalid | undefined {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (typeof input.name !== 'string' || input.name === '') {
    return invalidField('name', 'The name field is required.', input.name);
  }
  if (!CHANNELS.includes(input.channel as string)) {
    return invalidField('channel', 'The selected channel is invalid.', input.channel);
  }
  if (typeof input.account_number !== 'string' || !/^\+?2376\d{8}$/.test(input.account_number)) {
    return invalidField(
      'account_number',
      'The account number is not a Cameroon mobile number.',
      input.account_number,
    );
  }
  if (input.country !== 'CM')
    return invalidField('country', 'The selected country is invalid.', input.country);
  return undefined;
}

/** NotchPay's checks on `POST /transfers`. */
function checkTransfer(body: unknown, recipients: Map<string, FakeNotchRecipient>): Invalid | undefined {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (!Number.isInteger(input.amount) || (input.amount as number) <= 0) {
    return invalidField('amount', 'The amount must be a whole number of XAF.', input.amount);
  }
  if (input.currency !== 'XAF')
    return invalidField('currency', 'The selected currency is invalid.', input.currency);
  if (!CHANNELS.includes(input.channel as string)) {
    return invalidField('channel', 'The selected channel is invalid.', input.channel);
  }
  if (typeof input.recipient !== 'string' || !recipients.has(input.recipient)) {
    return invalidField('recipient', 'The selected recipient is invalid.', input.recipient);
  }
  if (typeof input.reference !== 'string' || input.reference === '' || input.reference.length > 100) {
    return invalidField('reference', 'The reference field is required.', input.reference);
  }
  if (typeof input.description !== 'string' || input.description === '') {
    return invalidField('description', 'The description field is required.', input.description);
  }
  return undefined;
}

/** A transfer as NotchPay shows it in answers and in webhooks' `data`. */
export function transferOf(transfer: FakeNotchTransfer): Record<string, unknown> {
  return {
    id: transfer.id,
    reference: transfer.reference,
    amount: transfer.amount,
    currency: transfer.currency,
    channel: transfer.channel,
    recipient: transfer.recipient,
    description: transfer.description,
    status: transfer.status,
    fee: 0,
    sandbox: true,
    created_at: '2025-01-01T12:00:00.000000Z',
  };
}

function newId(): string {
  return `trx.test_${randomBytes(8).toString('hex')}`;
}

function authorizationUrl(payment: FakeNotchPayment): string {
  return `https://pay.notchpay.co/${payment.id}`;
}

/** A payment as NotchPay shows it in answers and in webhooks' `data`. */
export function transactionOf(payment: FakeNotchPayment): Record<string, unknown> {
  return {
    id: payment.id,
    reference: payment.reference,
    amount: payment.amount,
    amount_total: payment.amount,
    currency: payment.currency,
    status: payment.status,
    customer: payment.customer,
    description: payment.description,
    sandbox: true,
    fee: 0,
    created_at: '2025-01-01T12:00:00.000000Z',
  };
}

/** NotchPay's error body: `{code, status, message, errors}`. */
function sendError(
  res: ServerResponse,
  code: number,
  message: string,
  errors?: Record<string, string[]>,
  headers: Record<string, string> = {},
): void {
  res.writeHead(code, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ code, status: STATUS_TEXT[code] ?? 'Error', message, errors: errors ?? {} }));
}

export interface SignedWebhook {
  rawBody: Buffer;
  headers: Record<string, string>;
}

/**
 * A webhook as NotchPay sends it: the JSON body in one of its two documented envelopes
 * (`type`: `{id, type, created_at, data}`; `event`: `{id, event, data}`) and `x-notch-signature`, the
 * hex HMAC-SHA256 of the raw body with the hash key.
 */
export function signedNotchPayWebhook(options: {
  event: string;
  data: Record<string, unknown>;
  envelope?: 'type' | 'event';
  id?: string;
  hashKey?: string;
}): SignedWebhook {
  const id = options.id ?? `evt.${randomBytes(8).toString('hex')}`;
  const body =
    options.envelope === 'event'
      ? { id, event: options.event, data: options.data }
      : { id, type: options.event, created_at: '2025-01-01T12:05:00.000000Z', data: options.data };
  const rawBody = Buffer.from(JSON.stringify(body));
  const signature = createHmac('sha256', options.hashKey ?? NOTCHPAY_HASH_KEY)
    .update(rawBody)
    .digest('hex');
  return { rawBody, headers: { 'content-type': 'application/json', 'x-notch-signature': signature } };
}
