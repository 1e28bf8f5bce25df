// Domain errors: services throw these, named after what happened, and know nothing of HTTP;
// plugins/app/errors.ts maps each one to a status and an envelope, in one place.
import type { PlayRefusal } from './allowed-values.js';
import { messages, playTexts } from './messages.js';

export type FieldErrors = Record<string, string[]>;

export abstract class DomainError extends Error {
  /** Payload for the envelope's `data`; an empty array when there is none. */
  readonly data: Record<string, unknown> | never[] = [];
  /** The caller as the answer names them (`user`), when the rule that failed says more than `{id}`. */
  readonly user: Record<string, unknown> | undefined = undefined;
}

/** No valid bearer token: missing, malformed, unknown, revoked or expired. */
export class Unauthenticated extends DomainError {
  constructor() {
    super(messages.unauthenticated);
  }
}

/** The caller is signed in but the thing is someone else's, or the area is not theirs. */
export abstract class AccessDenied extends DomainError {}

/** The resource exists but belongs to another user. */
export class NotOwner extends AccessDenied {
  constructor(message: string = messages.forbidden) {
    super(message);
  }
}

/** An admin area asked for with a user's token. */
export class AdminOnly extends AccessDenied {
  constructor() {
    super(messages.adminOnly);
  }
}

/** An admin deciding their own withdrawal (approve, reject or resolve): another admin must. */
export class OwnWithdrawal extends AccessDenied {
  constructor() {
    super(messages.withdrawalOwnDecision);
  }
}

/** An admin confirming or rejecting an approval they asked for: four eyes need another admin. */
export class OwnApproval extends AccessDenied {
  constructor() {
    super(messages.approvalOwnDecision);
  }
}

/**
 * An admin adjusting their own credits: separation of duties, as for their own withdrawal. The CLI's
 * `credits:grant` (an operator at the machine, not an admin account) stays allowed.
 */
export class OwnCreditAdjustment extends AccessDenied {
  constructor() {
    super(messages.adminOwnCredits);
  }
}

/**
 * An admin resolving a flag about their own payment or withdrawal: separation of duties, as for
 * deciding their own withdrawal; another admin must.
 */
export class OwnFlag extends AccessDenied {
  constructor() {
    super(messages.flagOwnResolution);
  }
}

export class NotFound extends DomainError {
  constructor(message: string = messages.notFound) {
    super(message);
  }
}

/**
 * The sign-in code was wrong, expired, used, voided or exhausted, the phone never asked for one, or
 * its account is blocked. One error for all of them, so an answer never tells whether a phone has an
 * account.
 */
export class InvalidCode extends DomainError {
  constructor() {
    super(messages.otpInvalid);
  }
}

/** The first request with this Idempotency-Key is still running (or another request took the key over). */
export class RequestInFlight extends DomainError {
  constructor() {
    super(messages.requestInFlight);
  }
}

/** A pronostic type already exists for this market (409): one type per engine market. */
export class PronosticTypeExists extends DomainError {
  constructor() {
    super(messages.pronosticTypeExists);
  }
}

/** Only a pending withdrawal whose payout is escalated is closed by hand (409). */
export class PayoutNotEscalated extends DomainError {
  constructor() {
    super(messages.withdrawalNotEscalated);
  }
}

/** A flag already resolved takes no second resolution (409). */
export class FlagAlreadyResolved extends DomainError {
  constructor() {
    super(messages.flagAlreadyResolved);
  }
}

/**
 * A payment failed because the provider took another amount or currency is never credited by a
 * flag's resolution, even when the provider later says it completed (409, the mismatch named).
 */
export class MismatchedPaymentCredit extends DomainError {
  constructor(kind: 'amount_mismatch' | 'currency_mismatch') {
    super(
      kind === 'amount_mismatch' ? messages.flagCreditAmountMismatch : messages.flagCreditCurrencyMismatch,
    );
  }
}

/** An admin's fixture whose teams meet in that competition and season already (409, its id in data). */
export class FixtureExists extends DomainError {
  override readonly data: { fixture_id: number };

  constructor(fixtureId: number) {
    super(messages.fixtureExists);
    this.data = { fixture_id: fixtureId };
  }
}

/** A support ticket that is closed takes no reply (409). */
export class TicketClosed extends DomainError {
  constructor() {
    super(messages.ticketIsClosed);
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

/**
 * A multipart body the parser could not read to its end (a wrong or missing boundary, a form cut
 * short): a 422 on `body`, whatever part it cut, and whatever a reader of that part made of it.
 */
export class MalformedForm extends ValidationFailed {
  constructor() {
    super({ body: [messages.multipartMalformed] });
  }
}

/** The credits balance is below what the action costs; nothing was changed. */
export class InsufficientCredits extends DomainError {
  override readonly data: { credits_balance: number; required: number };
  override readonly user: { id: number; credits_balance: number };

  constructor(userId: number, balance: number, required: number) {
    super(messages.insufficientCredits);
    this.data = { credits_balance: balance, required };
    this.user = { id: userId, credits_balance: balance };
  }
}

/** The withdrawable balance (XAF) is below the amount asked for; nothing was changed. */
export class InsufficientBalance extends DomainError {
  override readonly data: { balance: number; required: number };
  override readonly user: { id: number; money_balance: number };

  constructor(userId: number, balance: number, required: number) {
    super(messages.insufficientBalance);
    this.data = { balance, required };
    this.user = { id: userId, money_balance: balance };
  }
}

/** A withdrawal already has its admin's decision (approved or rejected): a decision is taken once. */
/** An approval already confirmed or rejected. */
export class ApprovalAlreadyDecided extends DomainError {
  constructor() {
    super(messages.approvalAlreadyDecided);
  }
}

/** A second request for an action whose approval is still pending. */
export class ApprovalPending extends DomainError {
  constructor() {
    super(messages.approvalPending);
  }
}

export class AlreadyDecided extends DomainError {
  constructor() {
    super(messages.withdrawalAlreadyDecided);
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

/**
 * A sign-up must show a solved proof-of-work challenge first (428): `data.challenge` is an ALTCHA
 * challenge (decision 0104); nothing was sent and nothing counted.
 */
export class ChallengeRequired extends DomainError {
  override readonly data: { challenge: Record<string, unknown> };

  constructor(challenge: Record<string, unknown>) {
    super(messages.otpChallengeRequired);
    this.data = { challenge };
  }
}

/**
 * An account cannot be deleted now (409): a payment or withdrawal is pending, a payout escalated, or
 * a money balance remains without `forfeit_balance: true` (then `data.money_balance` says how much).
 */
export class AccountDeletionRefused extends DomainError {
  override readonly data: { reason: string; money_balance?: number };

  constructor(
    reason: 'pending_payment' | 'pending_withdrawal' | 'escalated_payout' | 'balance',
    message: string,
    moneyBalance?: number,
  ) {
    super(message);
    this.data = moneyBalance === undefined ? { reason } : { reason, money_balance: moneyBalance };
  }
}

/**
 * Responsible play refused the action (403, DESIGN "Responsible play"): no date of birth, under age,
 * a spending limit reached (`data.resets_at`), or a self-exclusion under way (`data.until`). The
 * message says what to do, in the request's language.
 */
export class PlayRefused extends AccessDenied {
  override readonly data: { reason: PlayRefusal; until?: string; resets_at?: string };

  constructor(reason: 'age_required');
  constructor(reason: 'under_age', minimum: number);
  constructor(reason: 'limit_reached' | 'self_excluded', at: string);
  constructor(
    readonly reason: PlayRefusal,
    detail?: number | string,
  ) {
    super(
      reason === 'age_required'
        ? playTexts.ageRequired
        : reason === 'under_age'
          ? playTexts.underAge(Number(detail))
          : reason === 'limit_reached'
            ? playTexts.limitReached
            : playTexts.selfExcluded,
    );
    this.data =
      reason === 'limit_reached'
        ? { reason, resets_at: String(detail) }
        : reason === 'self_excluded'
          ? { reason, until: String(detail) }
          : { reason };
  }
}

/** The last admin cannot delete their account (403): the back office would have nobody. */
export class LastAdmin extends AccessDenied {
  constructor() {
    super(messages.accountDeleteLastAdmin);
  }
}

/** A role change or a block that would leave no active admin (409): the back office would have nobody. */
export class NoAdminLeft extends DomainError {
  constructor() {
    super(messages.noAdminLeft);
  }
}

/** An admin action on a deleted account (409): a tombstone is never changed again. */
export class AccountIsDeleted extends DomainError {
  constructor() {
    super(messages.accountDeleted409);
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
