// Integer fields accept numeric strings ("3") and nothing else (DESIGN.md, Formats). Ajv's own
// coercion would also turn `true` into 1 and `[3]` into 3, so it is off and this hook converts
// only digit strings, where the route's schema says the value is an integer.
import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { addRouteHook } from './route-hooks.js';

interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

const DIGITS = /^-?\d{1,15}$/;

function coerce(value: unknown, schema: SchemaNode | undefined): unknown {
  if (!schema) return value;
  if (schema.type === 'integer' && typeof value === 'string' && DIGITS.test(value.trim())) {
    return Number(value.trim());
  }
  if (schema.properties && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const [key, child] of Object.entries(schema.properties)) {
      if (Object.hasOwn(record, key)) record[key] = coerce(record[key], child);
    }
  }
  if (schema.items && Array.isArray(value)) return value.map((item) => coerce(item, schema.items));
  return value;
}

async function coercionPlugin(app: FastifyInstance): Promise<void> {
  // Only routes with a body, query or params schema get the hook, first of their preValidation hooks.
  app.addHook('onRoute', (route) => {
    const schema = route.schema as
      | { body?: SchemaNode; querystring?: SchemaNode; params?: SchemaNode }
      | undefined;
    if (!schema?.body && !schema?.querystring && !schema?.params) return;
    const { body, querystring, params } = schema;
    const hook: preValidationHookHandler = (request, _reply, done) => {
      if (body) request.body = coerce(request.body, body);
      if (querystring) request.query = coerce(request.query, querystring);
      if (params) request.params = coerce(request.params, params);
      done();
    };
    addRouteHook(route, 'preValidation', hook, 'first');
  });
}

export default fp(coercionPlugin, { name: 'coercion' });
