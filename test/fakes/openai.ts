// A local stand-in for an OpenAI-compatible chat-completions endpoint: it checks what a real one
// would (Bearer key, model, messages, a strict json_schema response format), answers in the
// documented shape, records each request, and can be told to misbehave (hang, slow, 500, malformed, refusal).

import type { ServerResponse } from 'node:http';
import { readBody, sendJson, serveOnLoopback } from './http.js';

export const OPENAI_API_KEY = 'sk-test-0123456789';
export const OPENAI_MODEL = 'fake-gpt-mini';

export type FakeMode = 'ok' | 'hang' | 'slow' | 'error500' | 'malformed' | 'not-json' | 'refusal' | 'betting';

export interface FakeOpenAi {
  baseUrl: string;
  requests: Array<{ path: string; authorization: string | undefined; body: Record<string, unknown> }>;
  /** Answers in order; the last one repeats. */
  modes: FakeMode[];
  analysis: string;
  /** How long a `slow` answer (a good one) takes. */
  slowMs: number;
  close(): Promise<void>;
}

function completion(content: string, refusal: string | null = null): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: OPENAI_MODEL,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

export async function startFakeOpenAi(): Promise<FakeOpenAi> {
  const fake: FakeOpenAi = {
    baseUrl: '',
    requests: [],
    modes: ['ok'],
    analysis:
      'Réécriture : le modèle voit un léger avantage pour l’équipe qui reçoit, sans certitude, avec des buts attendus modestes des deux côtés.',
    slowMs: 2_000,
    close: async () => {},
  };
  const pending = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server = await serveOnLoopback(async (request, response) => {
    const raw = await readBody(request);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return sendJson(response, 400, { error: { message: 'invalid JSON', type: 'invalid_request_error' } });
    }
    fake.requests.push({ path: request.url ?? '', authorization: request.headers.authorization, body });
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      return sendJson(response, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
    }
    if (request.headers.authorization !== `Bearer ${OPENAI_API_KEY}`) {
      return sendJson(response, 401, {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error' },
      });
    }
    const format = body.response_format as {
      type?: string;
      json_schema?: { strict?: boolean; schema?: unknown };
    };
    if (body.model !== OPENAI_MODEL || !Array.isArray(body.messages) || format?.type !== 'json_schema') {
      return sendJson(response, 400, { error: { message: 'bad request', type: 'invalid_request_error' } });
    }
    if (format.json_schema?.strict !== true || !format.json_schema.schema) {
      return sendJson(response, 400, {
        error: { message: 'schema must be strict', type: 'invalid_request_error' },
      });
    }
    const mode = fake.modes[Math.min(fake.requests.length - 1, fake.modes.length - 1)] ?? 'ok';
    switch (mode) {
      case 'hang':
        pending.add(response);
        return;
      case 'slow': {
        pending.add(response);
        const timer = setTimeout(() => {
          timers.delete(timer);
          pending.delete(response);
          if (!response.destroyed) {
            sendJson(response, 200, completion(JSON.stringify({ analysis: fake.analysis })));
          }
        }, fake.slowMs);
        timers.add(timer);
        return;
      }
      case 'error500':
        return sendJson(response, 500, {
          error: { message: 'The server had an error', type: 'server_error' },
        });
      case 'malformed':
        return sendJson(response, 200, completion('{"analysis": 42}'));
      case 'not-json':
        return sendJson(response, 200, completion('Voici mon analyse sans JSON.'));
      case 'refusal':
        return sendJson(response, 200, completion('', 'I cannot help with that.'));
      case 'betting':
        return sendJson(
          response,
          200,
          completion(JSON.stringify({ analysis: `${fake.analysis} Misez tout sur ce match !` })),
        );
      default:
        return sendJson(response, 200, completion(JSON.stringify({ analysis: fake.analysis })));
    }
  });
  fake.baseUrl = `${server.url}/v1`;
  fake.close = async () => {
    for (const timer of timers) clearTimeout(timer);
    for (const response of pending) response.destroy();
    await server.close();
  };
  return fake;
}
