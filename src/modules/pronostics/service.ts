// Pronostic rules: creation debits the type's difficulty in credits in the same transaction as the
// insert (and as the idempotent answer, when the request carried a key); reads are owner-only;
// deletion is soft. The service returns domain results and throws domain errors.
import type { Static } from 'typebox';
import type { Database } from '../../db/client.js';
import type { PronosticStatus } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { NotFound, NotOwner, ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { offsetOf, pageMeta, pageRequest } from '../../lib/pagination.js';
import { foldForSearch } from '../../lib/text.js';
import { addSeconds, isoTimestamp } from '../../lib/time.js';
import type { AuthUser } from '../auth/tokens.js';
import { type IdempotentCommit, withoutKey } from '../idempotency/service.js';
import { spendCredits } from '../wallet/ledger.js';
import {
  countCreated,
  countDeleted,
  countPronostics,
  countPronosticsByStatus,
  findActiveType,
  findLivePronostic,
  insertPronostic,
  listActiveTypes,
  listPronostics,
  liveCount,
  type PronosticTypeRow,
  type ShownPronostic,
  softDeletePronostic,
} from './repository.js';
import type { CreateBody, ListQuery } from './schemas.js';
import { searchTextOf } from './search-text.js';

/** How many pronostics the dashboard shows. */
export const LATEST_PRONOSTICS = 5;

/** A row still in `processing` this long after creation is cancelled and refunded. */
export const ANALYSIS_DEADLINE_SECONDS = 15 * 60;
const TEAMS_DETAILS_MAX_BYTES = 2048;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export type CreateInput = Static<typeof CreateBody>;

function typeView(type: PronosticTypeRow) {
  return {
    id: type.id,
    name: type.name,
    slug: type.slug,
    description: type.description,
    difficulty: type.difficulty,
    active: type.active,
  };
}

function pronosticView(row: ShownPronostic) {
  return {
    id: row.id,
    type_id: row.typeId,
    status: row.status,
    credits_cost: row.creditsCost,
    teams_details: row.teamsDetails as CreateInput['teams_details'],
    result: row.result ?? null,
    created_at: isoTimestamp(row.createdAt),
  };
}

function listedView(row: ShownPronostic) {
  return { ...pronosticView(row), ai_model: row.aiModel };
}

/** A pronostic just created, and the credits left once it was paid for. */
export interface CreatedPronostic {
  pronostic: ReturnType<typeof pronosticView>;
  creditsBalance: number;
}

function checkTeamsDetails(details: CreateInput['teams_details']): void {
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

export interface PronosticServiceDeps {
  db: Database;
  clock: Clock;
  /** Names the model that will run the analysis (stored at creation). */
  modelName: string;
  /** Wakes the workers once the row is committed. */
  notifyCreated: (id: number) => void;
}

export function createPronosticService({ db, clock, modelName, notifyCreated }: PronosticServiceDeps) {
  /** The live row and its type, if `user` owns it: NotFound when there is none, NotOwner when it is another's. */
  async function findOwned(user: AuthUser, id: number) {
    const found = await findLivePronostic(db, id);
    if (!found) throw new NotFound(messages.pronosticNotFound);
    if (found.userId !== user.id) throw new NotOwner(messages.pronosticForbidden);
    return found;
  }

  return {
    async listTypes() {
      return (await listActiveTypes(db)).map(typeView);
    },

    /**
     * Creates the pronostic and debits its cost, or throws InsufficientCredits having changed nothing.
     * The row is in `processing`: the worker picks it up once it is committed.
     */
    async create(
      user: AuthUser,
      input: CreateInput,
      commit: IdempotentCommit<CreatedPronostic> = withoutKey,
    ): Promise<CreatedPronostic> {
      const type = await findActiveType(db, input.type_id);
      if (!type) throw ValidationFailed.field('type_id', messages.unknownPronosticType);
      checkTeamsDetails(input.teams_details);
      const now = clock.now();
      const created = await db.transaction(async (tx) => {
        const row = await insertPronostic(tx, {
          userId: user.id,
          typeId: type.id,
          creditsCost: type.difficulty,
          teamsDetails: input.teams_details,
          aiModel: modelName,
          searchText: searchTextOf(input.teams_details),
          runAfter: now.toISOString(),
          deadlineAt: addSeconds(now, ANALYSIS_DEADLINE_SECONDS).toISOString(),
          idempotencyKeyId: commit.keyId,
        });
        await countCreated(tx, user.id);
        // A short balance throws, rolling the insert back: no pronostic without its debit.
        const debit = await spendCredits(tx, {
          userId: user.id,
          credits: type.difficulty,
          type: 'pronostic_debit',
          description: `${messages.pronosticDebitDescription} #${row.id} (${type.name})`,
          reference: `pronostic:${row.id}:debit`,
        });
        const result = { pronostic: pronosticView(row), creditsBalance: debit.balanceAfter };
        await commit.store(tx, result);
        return result;
      });
      notifyCreated(created.pronostic.id);
      return created;
    },

    async listOwn(user: AuthUser, query: Static<typeof ListQuery>) {
      const page = pageRequest(query);
      const search = query.search?.trim() ? foldForSearch(query.search.trim()) : undefined;
      const status = query.status as PronosticStatus | undefined;
      const outcome = query.outcome;
      const filter = {
        userId: user.id,
        ...(status ? { status } : {}),
        ...(outcome ? { outcome } : {}),
        ...(search ? { search } : {}),
      };
      const range = { limit: page.perPage, offset: offsetOf(page) };
      if (status || search || outcome) {
        // A filter's total is counted (the user's rows only).
        const [rows, total] = await Promise.all([
          listPronostics(db, filter, range),
          countPronostics(db, filter),
        ]);
        return { pronostics: rows.map(listedView), meta: pageMeta(page, total) };
      }
      // Unfiltered, the page's rows carry the user's live counter; a page past the end reads it alone.
      const rows = await listPronostics(db, filter, range);
      const total = rows[0]?.liveTotal ?? (await liveCount(db, user.id));
      return { pronostics: rows.map(listedView), meta: pageMeta(page, total) };
    },

    /** The owner's live pronostics counted by status, and the newest ones: two queries. */
    async summaryOwn(user: { id: number }) {
      const [counts, latest] = await Promise.all([
        countPronosticsByStatus(db, user.id),
        listPronostics(db, { userId: user.id }, { limit: LATEST_PRONOSTICS, offset: 0 }),
      ]);
      const of = (status: PronosticStatus) => counts.find((row) => row.status === status)?.total ?? 0;
      return {
        counts: {
          total: counts.reduce((sum, row) => sum + row.total, 0),
          processing: of('processing'),
          success: of('success'),
          cancelled: of('cancelled'),
        },
        latest: latest.map(listedView),
      };
    },

    async getOwn(user: AuthUser, id: number) {
      const { pronostic, type } = await findOwned(user, id);
      return { ...listedView(pronostic), type };
    },

    async deleteOwn(user: AuthUser, id: number): Promise<void> {
      await findOwned(user, id);
      // A concurrent delete may win; either way the row is gone for this user, counted down once.
      await db.transaction(async (tx) => {
        if (await softDeletePronostic(tx, id, user.id, clock.now())) await countDeleted(tx, user.id);
      });
    },
  };
}

export type PronosticService = ReturnType<typeof createPronosticService>;
