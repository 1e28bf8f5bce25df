// Shared schema pieces: the envelope around every payload, the error answers each route lists,
// pagination. Routes build their schemas from these so the OpenAPI document stays uniform.
import { type TLiteral, type TSchema, type TUnion, Type } from 'typebox';
import { PER_PAGE_MAX } from '../lib/pagination.js';

/** `[]` when a response has nothing for a key, as the spec's envelope shows. */
export const EmptyArray = Type.Array(Type.Unknown(), { maxItems: 0 });

export const FieldErrors = Type.Record(Type.String(), Type.Array(Type.String()), {
  description: 'Field name (dot path for nested fields) to French messages',
});

/** A successful envelope around `data`; `user` as the endpoint shows it. */
export function Envelope<D extends TSchema, U extends TSchema>(data: D, user: U) {
  return Type.Object({
    user,
    message: Type.String(),
    data,
    errors: EmptyArray,
  });
}

/** The OTP endpoints leave `errors` out of their answers other than 422. */
export function EnvelopeWithoutErrors<D extends TSchema, U extends TSchema>(data: D, user: U) {
  return Type.Object({ user, message: Type.String(), data });
}

/** Every error answer: the envelope with free-form `data` (`[]`, `retry_after`, balances…). */
export const ErrorEnvelope = Type.Object(
  {
    user: Type.Union([Type.Null(), Type.Object({ id: Type.Integer() }, { additionalProperties: true })]),
    message: Type.String(),
    data: Type.Unknown(),
    errors: Type.Optional(Type.Union([EmptyArray, FieldErrors])),
  },
  { description: 'Error envelope' },
);

/** Error statuses that any route may answer, and those of authenticated routes. */
export const commonErrors = {
  413: ErrorEnvelope,
  415: ErrorEnvelope,
  422: ErrorEnvelope,
  429: ErrorEnvelope,
  500: ErrorEnvelope,
} as const;

export const authErrors = { ...commonErrors, 401: ErrorEnvelope } as const;

/** `user` in the envelope of an authenticated route's answer: the caller's id. */
export const UserId = Type.Object({ id: Type.Integer() });

/**
 * One of `values` (a constant of lib/allowed-values.ts) as a union of literals (`anyOf` of consts),
 * the form these fields have in the OpenAPI document and the generated client; `Type.Enum` would
 * write `enum` instead. TypeBox types a union's static from a tuple only (over a mapped array it is
 * `never`), hence the cast: the static type is the constant's union.
 */
export function LiteralUnion<const Values extends readonly string[]>(
  values: Values,
): TUnion<Literals<Values>> {
  return Type.Union(values.map((value) => Type.Literal(value))) as TUnion<Literals<Values>>;
}

type Literals<Values extends readonly string[]> = {
  -readonly [K in keyof Values]: TLiteral<Values[K] & string>;
};

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: PER_PAGE_MAX })),
};

export const PageMetaSchema = Type.Object({
  current_page: Type.Integer(),
  last_page: Type.Integer(),
  per_page: Type.Integer(),
  total: Type.Integer(),
  has_more: Type.Boolean(),
});

export const Timestamp = Type.String({
  description: 'ISO 8601 UTC with microseconds',
  examples: ['2026-03-10T12:34:56.123456Z'],
});

/**
 * A served file's 200 (an exception to the envelope): the real media types it may have, so
 * generated clients and fuzzers know bytes come back. Fastify never serializes a Buffer or stream.
 */
export function FileResponse(mediaTypes: readonly string[], description: string) {
  return {
    description,
    content: Object.fromEntries(
      mediaTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    ),
  } as const;
}
