// One compiled serializer per response schema (issue 28): every route answers its errors with the
// same envelope schemas, and Fastify compiled them again for each route and status (some 900
// generated functions, 7 MB of source text held by the heap). Two routes that share a schema now
// share its serializer; routes with their own schemas keep their own.
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authErrors, ErrorEnvelope } from '../../src/schemas/common.js';
import { createTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
const seen: Record<string, { unauthorized: unknown; ok: unknown }> = {};

beforeAll(async () => {
  t = await createTestApp({
    beforeReady: (app) => {
      for (const name of ['first', 'second']) {
        app.get(
          `/test/serializers/${name}`,
          {
            schema: {
              response: {
                // Each route's own 200 schema (a new object), and the shared error schemas.
                200: Type.Object({ name: Type.String() }),
                ...authErrors,
              },
            },
          },
          async (_request, reply) => {
            seen[name] = {
              unauthorized: reply.getSerializationFunction('401'),
              ok: reply.getSerializationFunction('200'),
            };
            return { name };
          },
        );
      }
    },
  });
});
afterAll(() => t.close());

describe('response serializers', () => {
  it('are compiled once per schema and shared by the routes that use it', async () => {
    for (const name of ['first', 'second']) {
      const response = await t.app.inject({ method: 'GET', url: `/test/serializers/${name}` });
      expect(response.json()).toEqual({ name });
    }
    expect(seen.first!.unauthorized).toBeTypeOf('function');
    expect(seen.first!.unauthorized).toBe(seen.second!.unauthorized);
    // Distinct schema objects (even of the same shape) keep their own serializer.
    expect(seen.first!.ok).not.toBe(seen.second!.ok);
    expect(authErrors[401]).toBe(ErrorEnvelope);
  });

  it('a shared serializer still writes each answer by its schema', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/profile' });
    expect(response.statusCode).toBe(401);
    expect(Object.keys(response.json()).sort()).toEqual(['data', 'errors', 'message', 'user']);
  });
});
