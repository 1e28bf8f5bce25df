// A local stand-in for Twilio's Messages API: it checks each request the way Twilio would (path with
// the account SID, Basic auth, form encoding, the fields each channel needs), answers with Twilio's
// documented bodies, records what it got, and can be told to fail.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, readBody, sendJson, serveOnLoopback } from './http.js';

export const TWILIO_ACCOUNT_SID = 'ACaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
export const TWILIO_AUTH_TOKEN = 'twilio-secret-auth-token-0123456789';

/** The documented errors the fake can answer with: HTTP status and Twilio's message. */
export const TWILIO_ERRORS: Record<number, { status: number; message: string }> = {
  20003: { status: 401, message: 'Authentication Error - invalid username' },
  20404: { status: 404, message: 'The requested resource was not found' },
  20429: { status: 429, message: 'Too Many Requests' },
  20500: { status: 500, message: 'An internal server error has occurred' },
  21211: { status: 400, message: "Invalid 'To' Phone Number" },
  21408: {
    status: 400,
    message: "Permission to send an SMS has not been enabled for the region indicated by the 'To' number",
  },
  21602: { status: 400, message: 'Message body is required.' },
  21603: { status: 400, message: "A 'From' phone number is required." },
  21604: { status: 400, message: "A 'To' phone number is required." },
  21608: {
    status: 400,
    message: 'The number is unverified. Trial accounts cannot send messages to unverified numbers',
  },
  21612: {
    status: 400,
    message: "The 'To' phone number is not currently reachable using the 'From' phone number via SMS.",
  },
  21614: { status: 400, message: "'To' number is not a valid mobile number" },
  21624: { status: 400, message: 'Validity period can only be set to integers between 1 and 36,000 seconds' },
  63016: {
    status: 400,
    message:
      'Failed to send freeform message because you are outside the allowed window. Please use a Template.',
  },
};

/**
 * What the next requests get, in order; once the queue is empty every valid request succeeds.
 * `server-error`: a 500; `http-429`: a bare 429 with no Twilio body; `hang`: no answer at all;
 * `drop`: the connection is cut (a network error).
 */
export type TwilioBehaviour = 'ok' | 'server-error' | 'http-429' | 'hang' | 'drop' | { error: number };

export interface TwilioRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: Record<string, string>;
}

export interface TwilioFake {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** Every request received, valid or not. */
  requests: TwilioRequest[];
  /** What the fake found wrong in requests (empty when the driver did everything right). */
  problems: string[];
  respond(...behaviours: TwilioBehaviour[]): void;
  close(): Promise<void>;
}

export async function startTwilioFake(): Promise<TwilioFake> {
  const requests: TwilioRequest[] = [];
  const problems: string[] = [];
  const queue: TwilioBehaviour[] = [];
  const expectedPath = `/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages.json`;
  const expectedAuth = `Basic ${Buffer.from(`${TWILIO_ACCOUNT_SID}:${TWILIO_AUTH_TOKEN}`).toString('base64')}`;

  const server = await serveOnLoopback(async (req, res) => {
    const raw = await readBody(req);
    const form = Object.fromEntries(new URLSearchParams(raw));
    const request = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, form };
    requests.push(request);

    const refuse = (problem: string, code: number) => {
      problems.push(problem);
      sendError(res, code);
    };
    if (request.method !== 'POST' || request.path !== expectedPath) {
      return refuse(`unexpected ${request.method} ${request.path}`, 20404);
    }
    if (req.headers.authorization !== expectedAuth) return refuse('missing or wrong Basic auth', 20003);
    if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) {
      return refuse(`content type ${req.headers['content-type']}`, 21602);
    }
    const invalid = checkFields(form);
    if (invalid) return refuse(invalid.problem, invalid.code);

    const behaviour = queue.shift() ?? 'ok';
    if (behaviour === 'hang') return;
    if (behaviour === 'drop') return req.socket.destroy();
    if (behaviour === 'server-error') return sendError(res, 20500);
    if (behaviour === 'http-429') {
      res.writeHead(429, { 'content-type': 'text/plain' });
      return res.end('Too Many Requests');
    }
    if (typeof behaviour === 'object') return sendError(res, behaviour.error);
    sendJson(res, 201, messageResource(form));
  });

  return {
    baseUrl: server.url,
    accountSid: TWILIO_ACCOUNT_SID,
    authToken: TWILIO_AUTH_TOKEN,
    requests,
    problems,
    respond: (...behaviours) => queue.push(...behaviours),
    close: server.close,
  };
}

/** Twilio's own checks, per channel; undefined when the request is one Twilio would accept. */
function checkFields(form: Record<string, string>): { problem: string; code: number } | undefined {
  const { To: to, From: from, MessagingServiceSid: service, Body: body, ContentSid: contentSid } = form;
  if (!to) return { problem: 'To is missing', code: 21604 };
  if (!from && !service) return { problem: 'From and MessagingServiceSid are both missing', code: 21603 };
  if (service !== undefined && !/^MG[0-9a-f]{32}$/.test(service)) {
    return { problem: `MessagingServiceSid ${service}`, code: 21603 };
  }
  const validity = form.ValidityPeriod;
  if (validity !== undefined && !(/^\d+$/.test(validity) && +validity >= 1 && +validity <= 36_000)) {
    return { problem: `ValidityPeriod ${validity}`, code: 21624 };
  }
  if (to.startsWith('whatsapp:')) {
    if (!/^whatsapp:\+[1-9]\d{6,14}$/.test(to)) return { problem: `WhatsApp To ${to}`, code: 21211 };
    if (!from?.startsWith('whatsapp:+')) return { problem: `WhatsApp From ${from}`, code: 21612 };
    // Outside a 24 h session WhatsApp takes only templates: free text is refused.
    if (!contentSid) return { problem: 'WhatsApp message without ContentSid', code: 63016 };
    if (body !== undefined)
      return { problem: 'WhatsApp template message with a free-form Body', code: 63016 };
    if (!/^HX[0-9a-f]{32}$/.test(contentSid)) return { problem: `ContentSid ${contentSid}`, code: 21602 };
    const parsed = parseJson(form.ContentVariables ?? '');
    const variables =
      typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
    const code = variables?.['1'];
    if (typeof code !== 'string' || !/^\d{4,8}$/.test(code) || Object.keys(variables ?? {}).length !== 1) {
      return { problem: `ContentVariables ${form.ContentVariables}`, code: 21602 };
    }
    return undefined;
  }
  if (!/^\+[1-9]\d{6,14}$/.test(to)) return { problem: `To ${to}`, code: 21211 };
  if (from?.startsWith('whatsapp:')) return { problem: `SMS From ${from}`, code: 21612 };
  if (!body) return { problem: 'SMS without Body', code: 21602 };
  if (contentSid !== undefined) return { problem: 'SMS with a ContentSid', code: 21602 };
  return undefined;
}

/** The Message resource Twilio answers a create with (201). */
function messageResource(form: Record<string, string>) {
  const sid = `SM${randomBytes(16).toString('hex')}`;
  const now = new Date().toUTCString();
  return {
    account_sid: TWILIO_ACCOUNT_SID,
    api_version: '2010-04-01',
    body: form.Body ?? '',
    date_created: now,
    date_sent: null,
    date_updated: now,
    direction: 'outbound-api',
    error_code: null,
    error_message: null,
    from: form.From ?? null,
    messaging_service_sid: form.MessagingServiceSid ?? null,
    num_media: '0',
    num_segments: '1',
    price: null,
    price_unit: 'USD',
    sid,
    status: form.MessagingServiceSid && !form.From ? 'accepted' : 'queued',
    subresource_uris: { media: `/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages/${sid}/Media.json` },
    to: form.To,
    uri: `/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages/${sid}.json`,
  };
}

/** Twilio's error body: `{code, message, more_info, status}`. */
function sendError(res: ServerResponse, code: number): void {
  const known = TWILIO_ERRORS[code] ?? { status: 400, message: `Error ${code}` };
  sendJson(res, known.status, {
    code,
    message: known.message,
    more_info: `https://www.twilio.com/docs/errors/${code}`,
    status: known.status,
  });
}
