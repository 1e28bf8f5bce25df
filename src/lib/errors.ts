// Domain errors: services throw these and know nothing of HTTP; plugins/app/errors.ts maps each
// one to a status and an envelope, in one place.
import { messages } from './messages.js';

export type FieldErrors = Record<string, string[]>;

export abstract class DomainError extends Error {
  /** Payload for the envelope's `data`; an empty array when there is none. */
  readonly data: Record<string, unknown> | never[] = [];
}

export class Unauthenticated extends DomainError {
  constructor() {
    super(messages.unauthenticated);
  }
}

export class Forbidden extends DomainError {
  constructor(message: string = messages.forbidden) {
    super(message);
  }
}

export class NotFound extends DomainError {
  constructor(message: string = messages.notFound) {
    super(message);
  }
}

/** A well-formed request that cannot be honoured as asked (e.g. an invalid or expired code): 400. */
export class BadRequest extends DomainError {}

export class Conflict extends DomainError {
  constructor(message: string = messages.conflict) {
    super(message);
  }
}

/** A 422: `errors` maps each field (dot paths for nested ones) to French messages. */
export class ValidationFailed extends DomainError {
  constructor(readonly errors: FieldErrors) {
    super(Object.values(errors)[0]?.[0] ?? messages.validationFailed);
  }

  static field(field: string, message: string): ValidationFailed {
    return new ValidationFailed({ [field]: [message] });
  }
}

/** Not enough credits or money: a 402 whose `data` says what was there and what was needed. */
export class InsufficientFunds extends DomainError {
  override readonly data: Record<string, unknown>;

  constructor(
    message: string,
    data: Record<string, unknown>,
    readonly user?: Record<string, unknown>,
  ) {
    super(message);
    this.data = data;
  }
}

export class RateLimited extends DomainError {
  override readonly data: { retry_after: number };

  constructor(
    readonly retryAfterSeconds: number,
    message: string = messages.tooManyRequests,
  ) {
    super(message);
    this.data = { retry_after: Math.max(1, Math.ceil(retryAfterSeconds)) };
  }
}

/** A dependency (SMS provider, payment provider) failed; the message is safe to show. */
export class UpstreamFailed extends DomainError {
  constructor(
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
  }
}
