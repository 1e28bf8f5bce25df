// Issue 40's English cases: each area's test/<area>/english.test.ts names the routes it covers in
// its test titles (`it('GET /api/fixtures', …)`), which test/architecture/english-coverage.test.ts
// reads to find a route with no English case. The texts expected are the English catalogue's.
import type { FastifyInstance, InjectOptions } from 'fastify';
import { expect } from 'vitest';
import { en } from '../src/lib/catalogues/en.js';

export { en };
export const EN = { 'accept-language': 'en' } as const;

type Answer = Awaited<ReturnType<FastifyInstance['inject']>>;

/** Sends `request` in English (Accept-Language: en added to its headers). */
export function inEnglish(app: FastifyInstance, request: InjectOptions): Promise<Answer> {
  return app.inject({ ...request, headers: { ...(request.headers ?? {}), ...EN } }) as Promise<Answer>;
}

/** An English envelope: the status, the message, and `Content-Language: en`. */
export function expectEnglish(response: Answer, status: number, message: string): void {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().message).toBe(message);
  expect(response.headers['content-language']).toBe('en');
}

/** An English 422: the message and the field's English texts, the field named as it is. */
export function expectEnglish422(response: Answer, field: string, text: string): void {
  expectEnglish(response, 422, response.json().message);
  expect(response.json().errors[field], response.body).toContain(text);
}
