// A local stand-in for Meta's WhatsApp Cloud API messages endpoint: it checks each request the way
// the Graph API would (version and phone number id in the path, Bearer token, JSON, an authentication
// template whose code appears in the body and behind the copy-code button), answers with Meta's
// documented bodies, records what it got, and can be told to fail.

import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson, readBody, sendJson, serveOnLoopback } from './http.js';

export const WHATSAPP_TOKEN = 'EAAG-whatsapp-cloud-secret-token';
export const WHATSAPP_PHONE_NUMBER_ID = '106540352242922';
export const WHATSAPP_API_VERSION = 'v21.0';
export const WHATSAPP_TEMPLATE = 'code_verification';
export const WHATSAPP_LANGUAGE = 'fr';
/** The template's English translation: Meta approves each language of a template on its own. */
export const WHATSAPP_LANGUAGE_EN = 'en';
/** An English-only template of its own name. */
export const WHATSAPP_TEMPLATE_EN = 'verification_code_en';
/** The approved templates, by name, with the languages each is approved in. */
const APPROVED: Record<string, readonly string[]> = {
  [WHATSAPP_TEMPLATE]: [WHATSAPP_LANGUAGE, WHATSAPP_LANGUAGE_EN],
  [WHATSAPP_TEMPLATE_EN]: [WHATSAPP_LANGUAGE_EN],
};

/** The documented errors the fake can answer with: HTTP status, type, message and subcode. */
export const WHATSAPP_ERRORS: Record<
  number,
  { status: number; type: string; message: string; subcode?: number }
> = {
  1: { status: 500, type: 'OAuthException', message: 'An unknown error occurred' },
  100: { status: 400, type: 'OAuthException', message: '(#100) Invalid parameter' },
  190: {
    status: 401,
    type: 'OAuthException',
    message: 'Invalid OAuth access token - Cannot parse access token',
    subcode: 463,
  },
  130429: { status: 400, type: 'OAuthException', message: '(#130429) Rate limit hit' },
  131026: { status: 400, type: 'OAuthException', message: '(#131026) Message undeliverable' },
  131030: {
    status: 400,
    type: 'OAuthException',
    message: '(#131030) Recipient phone number not in allowed list',
  },
  132000: {
    status: 400,
    type: 'OAuthException',
    message: '(#132000) Number of parameters does not match the expected number of params',
  },
  132001: {
    status: 404,
    type: 'OAuthException',
    message: '(#132001) Template name does not exist in the translation',
  },
};

/**
 * What the next requests get, in order; once the queue is empty every valid request succeeds.
 * `server-error`: a 500; `hang`: no answer at all; `drop`: the connection is cut.
 */
export type WhatsappBehaviour = 'ok' | 'server-error' | 'hang' | 'drop' | { error: number };

export interface WhatsappRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

export interface WhatsappCloudFake {
  baseUrl: string;
  requests: WhatsappRequest[];
  /** What the fake found wrong in requests (empty when the driver did everything right). */
  problems: string[];
  respond(...behaviours: WhatsappBehaviour[]): void;
  close(): Promise<void>;
}

export async function startWhatsappCloudFake(): Promise<WhatsappCloudFake> {
  const requests: WhatsappRequest[] = [];
  const problems: string[] = [];
  const queue: WhatsappBehaviour[] = [];

  const server = await serveOnLoopback(async (req, res) => {
    const raw = await readBody(req);
    const body = parseJson(raw);
    requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });

    const refuse = (problem: string, code: number) => {
      problems.push(problem);
      sendError(res, code);
    };
    if (
      req.method !== 'POST' ||
      req.url !== `/${WHATSAPP_API_VERSION}/${WHATSAPP_PHONE_NUMBER_ID}/messages`
    ) {
      return refuse(`unexpected ${req.method} ${req.url}`, 100);
    }
    if (req.headers.authorization !== `Bearer ${WHATSAPP_TOKEN}`)
      return refuse('missing or wrong Bearer token', 190);
    if (!req.headers['content-type']?.startsWith('application/json')) {
      return refuse(`content type ${req.headers['content-type']}`, 100);
    }
    const invalid = checkTemplateMessage(body);
    if (invalid) return refuse(invalid.problem, invalid.code);

    const behaviour = queue.shift() ?? 'ok';
    if (behaviour === 'hang') return;
    if (behaviour === 'drop') return req.socket.destroy();
    if (behaviour === 'server-error') return sendError(res, 1);
    if (typeof behaviour === 'object') return sendError(res, behaviour.error);
    const to = (body as { to: string }).to;
    sendJson(res, 200, {
      messaging_product: 'whatsapp',
      contacts: [{ input: to, wa_id: to }],
      messages: [{ id: `wamid.${randomBytes(24).toString('base64url')}`, message_status: 'accepted' }],
    });
  });

  return {
    baseUrl: server.url,
    requests,
    problems,
    respond: (...behaviours) => queue.push(...behaviours),
    close: server.close,
  };
}

/** The authentication template with a copy-code button: the same code in the body and the button. */
function checkTemplateMessage(body: unknown): { problem: string; code: number } | undefined {
  const message = record(body);
  if (!message) return { problem: 'body is not a JSON object', code: 100 };
  if (message.messaging_product !== 'whatsapp') return { problem: 'messaging_product', code: 100 };
  if (typeof message.to !== 'string' || !/^[1-9]\d{6,14}$/.test(message.to)) {
    return { problem: `to ${JSON.stringify(message.to)} (digits, no +)`, code: 100 };
  }
  if (message.type !== 'template') return { problem: `type ${JSON.stringify(message.type)}`, code: 100 };
  const template = record(message.template);
  const languages = typeof template?.name === 'string' ? APPROVED[template.name] : undefined;
  if (!template || !languages) return { problem: 'template name', code: 132001 };
  const language = record(template.language)?.code;
  if (typeof language !== 'string' || !languages.includes(language))
    return { problem: 'template language', code: 132001 };
  const components = Array.isArray(template.components) ? template.components.map(record) : [];
  const bodyPart = components.find((c) => c?.type === 'body');
  const button = components.find((c) => c?.type === 'button');
  const bodyCode = onlyText(bodyPart?.parameters);
  if (components.length !== 2 || !bodyCode || !/^\d{4,8}$/.test(bodyCode)) {
    return { problem: 'body component with one text parameter (the code)', code: 132000 };
  }
  if (button?.sub_type !== 'url' || button.index !== '0') {
    return { problem: 'button component sub_type "url", index "0"', code: 132000 };
  }
  if (onlyText(button.parameters) !== bodyCode) {
    return { problem: 'button parameter must repeat the code', code: 132000 };
  }
  return undefined;
}

function onlyText(parameters: unknown): string | undefined {
  if (!Array.isArray(parameters) || parameters.length !== 1) return undefined;
  const parameter = record(parameters[0]);
  return parameter?.type === 'text' && typeof parameter.text === 'string' ? parameter.text : undefined;
}

/** Meta's error body: `{"error":{message,type,code,error_subcode,fbtrace_id}}`. */
function sendError(res: ServerResponse, code: number): void {
  const known = WHATSAPP_ERRORS[code] ?? { status: 400, type: 'OAuthException', message: `(#${code}) Error` };
  sendJson(res, known.status, {
    error: {
      message: known.message,
      type: known.type,
      code,
      ...(known.subcode === undefined ? {} : { error_subcode: known.subcode }),
      fbtrace_id: `A${randomBytes(10).toString('base64url')}`,
    },
  });
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}
