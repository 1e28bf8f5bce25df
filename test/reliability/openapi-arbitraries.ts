// fast-check arbitraries built from the live OpenAPI document: values a schema accepts, and the
// broken values a stranger sends instead (wrong types, missing and extra fields, hostile strings,
// odd numbers). The fuzz test draws every request from these.
import fc from 'fast-check';

// biome-ignore lint/suspicious/noExplicitAny: a JSON Schema is untyped JSON.
export type JsonSchema = Record<string, any>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}
export interface OpenApiParameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: JsonSchema;
}
export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
  security?: unknown[];
}

/** Strings that have broken services: NUL, lone surrogates, huge, right-to-left, markup, paths, SQL. */
export const hostileStrings: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202eevil',
  '𝕏'.repeat(3000),
  'é'.repeat(70_000),
  'a'.repeat(300),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '../../../../etc/passwd',
  '%00',
  '%ZZ',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, sent as written.
  '${jndi:ldap://x}',
  '{{7*7}}',
  'null',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '\n\r\t',
  '🙂🙃',
];

/** Numbers (and near-numbers) at the edges: negative, fractional, beyond int32 and 2^53, numeric strings. */
export const oddNumbers: readonly unknown[] = [
  -1,
  0,
  1.5,
  -0.0001,
  1e308,
  -1e308,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  '3',
  '03',
  ' 3',
  '3 ',
  '0x10',
  '1e3',
  '',
  true,
  null,
  [],
  {},
];

/** Values of the wrong JSON type, whatever the field wanted. */
const wrongTypes: readonly unknown[] = [null, true, 0, -5, 'texte', [], [1, 2], {}, { a: 1 }];

export function resolve(document: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  let current = schema ?? {};
  for (let depth = 0; typeof current.$ref === 'string' && depth < 10; depth += 1) {
    const name = current.$ref.replace('#/components/schemas/', '');
    current = document.components?.schemas?.[name] ?? {};
  }
  return current;
}

/** A value the schema accepts (most of the time: formats like phones are hinted by the field's name). */
export function validValue(
  document: OpenApiDocument,
  raw: JsonSchema | undefined,
  fieldName = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const schema = resolve(document, raw);
  if (depth > 6) return fc.constant(null);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(variants) && variants.length > 0) {
    return fc.oneof(...variants.map((v: JsonSchema) => validValue(document, v, fieldName, depth + 1)));
  }
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1) {
    return fc.oneof(
      ...type.map((t: string) => validValue(document, { ...schema, type: t }, fieldName, depth + 1)),
    );
  }
  switch (type[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = Math.max(schema.minimum ?? -1000, -1_000_000);
      const max = Math.min(schema.maximum ?? 1_000_000, 1_000_000);
      return fc.integer({ min: Math.min(min, max), max });
    }
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e6,
        max: schema.maximum ?? 1e6,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'string':
      return validString(schema, fieldName);
    case 'array':
      return fc.array(validValue(document, schema.items, fieldName, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'object':
      return validObject(document, schema, depth);
    default:
      if (schema.properties) return validObject(document, schema, depth);
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validString(schema: JsonSchema, fieldName: string): fc.Arbitrary<string> {
  const name = fieldName.toLowerCase();
  if (name.includes('phone')) return fc.constantFrom('+237670000001', '+237690000002', '+237650000003');
  if (name === 'country') return fc.constantFrom('CM', 'cm');
  if (name === 'icon' || schema.format === 'uri') return fc.webUrl();
  if (schema.format === 'date' || name === 'from' || name === 'to' || name === 'date') {
    return fc
      .date({
        min: new Date('2020-01-01T00:00:00Z'),
        max: new Date('2030-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((d) => d.toISOString().slice(0, 10));
  }
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, Math.max(minLength, 60));
  if (typeof schema.pattern === 'string') {
    return fc
      .stringMatching(new RegExp(schema.pattern))
      .filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Number.MAX_SAFE_INTEGER));
  }
  return fc.string({ minLength, maxLength });
}

function validObject(document: OpenApiDocument, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set<string>(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, value] of Object.entries(properties))
    model[key] = validValue(document, value, key, depth + 1);
  return fc.record(model, { requiredKeys: Object.keys(properties).filter((k) => required.has(k)) });
}

/** A broken version of a valid value: a field dropped, added, retyped or made hostile, anywhere in it. */
export function brokenValue(
  valid: fc.Arbitrary<unknown>,
  required: readonly string[],
): fc.Arbitrary<unknown> {
  const hostile = fc.oneof(fc.constantFrom(...hostileStrings), fc.constantFrom(...oddNumbers));
  return fc.oneof(
    fc.constantFrom(...wrongTypes),
    hostile,
    fc
      .tuple(valid, fc.nat(), hostile)
      .map(([value, pick, replacement]) => replaceSomewhere(value, pick, replacement)),
    fc
      .tuple(valid, fc.nat(), fc.constantFrom(...wrongTypes))
      .map(([value, pick, replacement]) => replaceSomewhere(value, pick, replacement)),
    fc.tuple(valid, fc.constantFrom(...(required.length > 0 ? required : ['_']))).map(([value, key]) => {
      if (!isObject(value)) return value;
      const { [key]: _dropped, ...rest } = value;
      return rest;
    }),
    fc
      .tuple(valid, fc.string({ maxLength: 20 }), hostile)
      .map(([value, key, extra]) => (isObject(value) ? { ...value, [key || 'extra']: extra } : value)),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Replaces the pick-th leaf (in depth-first order, wrapping) of a JSON value. */
function replaceSomewhere(value: unknown, pick: number, replacement: unknown): unknown {
  const leaves: string[][] = [];
  const walk = (node: unknown, path: string[]) => {
    if (isObject(node) && Object.keys(node).length > 0) {
      for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
    } else if (Array.isArray(node) && node.length > 0) {
      node.forEach((child, index) => {
        walk(child, [...path, String(index)]);
      });
    } else {
      leaves.push(path);
    }
  };
  walk(value, []);
  const path = leaves[pick % leaves.length] ?? [];
  if (path.length === 0) return replacement;
  const copy = structuredClone(value) as Record<string, unknown>;
  let node: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path[path.length - 1] as string] = replacement;
  return copy;
}
