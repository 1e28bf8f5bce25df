// The response envelope of the spec: `{user, message, data, errors}`. One builder, used by every
// route and by the error handler, so every answer has the same shape.
import type { FieldErrors } from './errors.js';
import { messages } from './messages.js';

export interface Envelope<D = unknown, U = Record<string, unknown> | null> {
  user: U;
  message: string;
  data: D;
  errors: never[];
}

export type ErrorBody = Omit<Envelope<unknown, Record<string, unknown> | null>, 'errors'> & {
  errors?: never[] | FieldErrors;
};

export function envelope<D = never[], U extends Record<string, unknown> | null = null>(parts: {
  user?: U;
  message?: string;
  data?: D;
}): Envelope<D, U> {
  return {
    user: (parts.user ?? null) as U,
    message: parts.message ?? messages.ok,
    data: parts.data ?? ([] as D),
    errors: [],
  };
}

/** An error answer; `errors` maps fields to messages on a 422. */
export function errorEnvelope(parts: {
  user?: Record<string, unknown> | null;
  message: string;
  data?: unknown;
  errors?: FieldErrors;
}): ErrorBody {
  return {
    user: parts.user ?? null,
    message: parts.message,
    data: parts.data ?? [],
    errors: parts.errors ?? [],
  };
}

/** The OTP endpoints leave `errors` out of their answers other than 422, as the spec shows. */
export function envelopeWithoutErrors<D = never[]>(parts: {
  message?: string;
  data?: D;
}): Omit<Envelope<D, null>, 'errors'> {
  const { errors: _omitted, ...rest } = envelope<D>(parts);
  return rest;
}
