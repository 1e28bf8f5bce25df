// Pronostic rules: creation debits the type's difficulty in credits in the same transaction as the
// insert (and stores the idempotent answer there too); reads are owner-only; deletion is soft.
import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { PronosticStatus } from '../../db/schema/index.js';
import { envelope } from '../../lib/envelope.js';
import { Forbidden, InsufficientFunds, NotFound, ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { offsetOf, pageMeta, pageRequest } from '../../lib/pagination.js';
import { foldForSearch } from '../../lib/text.js';
import { addSeconds, isoTimestamp } from '../../lib/time.js';
import type { AuthUser } from '../auth/tokens.js';
import { beginIdempotent } from '../idempotency/service.js';
import { findUserById } from '../users/repository.js';
import { postOperation } from '../wallet/ledger.js';
import {
  countPronostics,
  findActiveType,
  findLivePronostic,
  insertPronostic,
  listActiveTypes,
  listPronostics,
  type PronosticRow,
  type PronosticTypeRow,
  softDeletePronostic,
} from './repository.js';
import type { CreateBody, ListQuery } from './schemas.js';
import { searchTextOf } from './search-text.js';

/** A row still in `processing` this long after creation is cancelled and refunded. */
export const ANALYSIS_DEADLINE_SECONDS = 15 * 60;
const TEAMS_DETAILS_MAX_BYTES = 2048;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export interface PronosticDeps {
  db: Database;
  config: Config;
  /** Names the model that will run the analysis (stored at creation). */
  modelName: string;
  /** Wakes the workers once the row is committed. */
  notifyCreated: (id: number) => void;
}

export function typeView(type: PronosticTypeRow) {
  return {
    id: type.id,
    name: type.name,
    slug: type.slug,
    description: type.description,
    difficulty: type.difficulty,
    active: type.active,
  };
}

function pronosticView(row: PronosticRow) {
  return {
    id: row.id,
    type_id: row.typeId,
    status: row.status,
    credits_cost: row.creditsCost,
    teams_details: row.teamsDetails as Static<typeof CreateBody>['teams_details'],
    result: row.result ?? null,
    created_at: isoTimestamp(row.createdAt),
  };
}

export function listedView(row: PronosticRow) {
  return { ...pronosticView(row), ai_model: row.aiModel };
}

function checkTeamsDetails(details: Static<typeof CreateBody>['teams_details']): void {
  const errors: Record<string, string[]> = {};
  if (Buffer.byteLength(JSON.stringify(details)) > TEAMS_DETAILS_MAX_BYTES) {
    errors.teams_details = [messages.teamsDetailsTooLarge];
  }
  if (details.home.trim() === '') errors['teams_details.home'] = [messages.blankField];
  if (details.away.trim() === '') errors['teams_details.away'] = [messages.blankField];
  if (
    details.home.trim() !== '' &&
    foldForSearch(details.home.trim()) === foldForSearch(details.away.trim())
  ) {
    errors['teams_details.away'] = [messages.sameTeams];
  }
  if (
    details.date !== undefined &&
    (!ISO_DATE.test(details.date) || Number.isNaN(Date.parse(details.date)))
  ) {
    errors['teams_details.date'] = [messages.invalidMatchDate];
  }
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
}

export async function listTypes(db: Database) {
  return (await listActiveTypes(db)).map(typeView);
}

/** Thrown inside the creation transaction to roll it back when the balance is short. */
class NotEnoughCredits extends Error {}

export interface CreateAnswer {
  statusCode: 201 | 402;
  body: unknown;
}

export async function createPronostic(
  deps: PronosticDeps,
  user: AuthUser,
  input: Static<typeof CreateBody>,
  idempotencyKey: string | undefined,
  now: Date,
): Promise<CreateAnswer> {
  const type = await findActiveType(deps.db, input.type_id);
  if (!type) throw ValidationFailed.field('type_id', messages.unknownPronosticType);
  checkTeamsDetails(input.teams_details);

  const idempotency = idempotencyKey
    ? await beginIdempotent(
        deps.db,
        { userId: user.id, scope: 'pronostic.create', key: idempotencyKey, body: input },
        now,
      )
    : undefined;
  if (idempotency && 'replay' in idempotency) {
    return idempotency.replay as CreateAnswer;
  }
  const claim = idempotency?.claim;

  try {
    const created = await deps.db
      .transaction(async (tx) => {
        const row = await insertPronostic(tx, {
          userId: user.id,
          typeId: type.id,
          creditsCost: type.difficulty,
          teamsDetails: input.teams_details,
          aiModel: deps.modelName,
          searchText: searchTextOf(input.teams_details),
          runAfter: now.toISOString(),
          deadlineAt: addSeconds(now, ANALYSIS_DEADLINE_SECONDS).toISOString(),
        });
        const debit = await postOperation(tx, {
          userId: user.id,
          type: 'pronostic_debit',
          currency: 'credits',
          amount: -type.difficulty,
          description: `${messages.pronosticDebitDescription} #${row.id} (${type.name})`,
          reference: `pronostic:${row.id}`,
        });
        // Throwing rolls the insert back: no pronostic without its debit.
        if (!debit) throw new NotEnoughCredits();
        const answer: CreateAnswer = {
          statusCode: 201,
          body: envelope({
            user: { id: user.id, credits_balance: debit.balanceAfter },
            message: messages.pronosticCreated,
            data: { pronostic: pronosticView(row) },
          }),
        };
        await claim?.complete(tx, answer, now);
        return { row, answer };
      })
      .catch((error: unknown) => {
        if (error instanceof NotEnoughCredits) return null;
        throw error;
      });
    if (created) {
      deps.notifyCreated(created.row.id);
      return created.answer;
    }
    const balance = (await findUserById(deps.db, user.id))?.creditsBalance ?? 0;
    const refusal = new InsufficientFunds(
      messages.insufficientCredits,
      { credits_balance: balance, required: type.difficulty },
      { id: user.id, credits_balance: balance },
    );
    const answer: CreateAnswer = {
      statusCode: 402,
      body: envelope({ user: refusal.user, message: refusal.message, data: refusal.data }),
    };
    await claim?.complete(deps.db, answer, now);
    return answer;
  } catch (error) {
    await claim?.release(deps.db).catch(() => {});
    throw error;
  }
}

export async function listOwnPronostics(db: Database, user: AuthUser, query: Static<typeof ListQuery>) {
  const page = pageRequest(query);
  const search = query.search?.trim() ? foldForSearch(query.search.trim()) : undefined;
  const filter = { userId: user.id, status: query.status as PronosticStatus | undefined, search };
  const [rows, total] = await Promise.all([
    listPronostics(db, filter, { limit: page.perPage, offset: offsetOf(page) }),
    countPronostics(db, filter),
  ]);
  return { pronostics: rows.map(listedView), meta: pageMeta(page, total) };
}

async function findOwned(db: Database, user: AuthUser, id: number) {
  const found = await findLivePronostic(db, id);
  if (!found) throw new NotFound(messages.pronosticNotFound);
  if (found.pronostic.userId !== user.id) throw new Forbidden(messages.pronosticForbidden);
  return found;
}

export async function getOwnPronostic(db: Database, user: AuthUser, id: number) {
  const { pronostic, type } = await findOwned(db, user, id);
  return {
    ...listedView(pronostic),
    type: { id: type.id, name: type.name, slug: type.slug, difficulty: type.difficulty },
  };
}

export async function deleteOwnPronostic(db: Database, user: AuthUser, id: number, now: Date): Promise<void> {
  await findOwned(db, user, id);
  // A concurrent delete may win; either way the row is gone for this user.
  await softDeletePronostic(db, id, user.id, now);
}
