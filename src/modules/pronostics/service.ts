// Pronostic rules: creation debits the type's difficulty in credits in the same transaction as the
// insert (and as the idempotent answer, when the request carried a key); reads are owner-only;
// deletion is soft. The service returns domain results and throws domain errors.
import type { Static } from 'typebox';
import { channels, type Wakeups } from '../../db/channels.js';
import type { Database, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { PronosticStatus } from '../../lib/allowed-values.js';
import { type PronosticTypeSlug, pronosticTypeSlugs } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { NotFound, NotOwner, PronosticTypeExists, ValidationFailed } from '../../lib/errors.js';
import { currentLocale } from '../../lib/locale.js';
import { catalogueFor, messages, validationMessages } from '../../lib/messages.js';
import { offsetOf, pageMeta, pageRequest } from '../../lib/pagination.js';
import { foldForSearch } from '../../lib/text.js';
import { addSeconds, isoTimestamp } from '../../lib/time.js';
import type { AuthUser } from '../../types/auth.js';
import type { IdempotentCommit } from '../../types/idempotency.js';
import type { Ledger } from '../../types/ledger.js';
import type { AccountLocales } from '../../types/locale.js';
import type { AuditRecorder } from '../admin/service.js';
import type { FixtureService } from '../fixtures/service.js';
import { withoutKey } from '../idempotency/commit.js';
import type { AnalysisAdmission } from './admission.js';
import {
  countAllPronosticsOf,
  countByFixtures,
  countCreated,
  countDeleted,
  countPronosticsByStatus,
  findActiveType,
  findLivePronosticText,
  forgetOwner,
  insertPronostic,
  insertTypeIfAbsent,
  type ListedText,
  legMatrices,
  legResults,
  legSources,
  listActiveTypes,
  listAllPronosticsOf,
  listAllTypes,
  listPronostics,
  listPronosticsText,
  liveCount,
  lockType,
  type PronosticTypeRow,
  pronosticsByDayAndStatus,
  pronosticsForExport,
  type ShownPronostic,
  settlementStates,
  softDeletePronostic,
  type TypeChanges,
  updateType,
} from './repository.js';
import type {
  AdminPronosticTypeSchema,
  CreateBody,
  CreatedPronostic as CreatedPronosticSchema,
  CreateTypeBody,
  DetailedPronostic,
  ListedPronostic,
  ListQuery,
  PronosticTypeSchema,
  UpdateTypeBody,
} from './schemas.js';
import { searchTextOf } from './search-text.js';

/** How many pronostics the dashboard shows. */
export const LATEST_PRONOSTICS = 5;

/** A row still in `processing` this long after creation is cancelled and refunded. */
export const ANALYSIS_DEADLINE_SECONDS = 15 * 60;
const TEAMS_DETAILS_MAX_BYTES = 2048;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

export type CreateInput = Static<typeof CreateBody>;

/**
 * A type's name in the current language: the English where an admin gave one, else the French
 * (decision 0136). French requests read exactly the stored French.
 */
export function typeName(type: { name: string; nameEn: string | null }): string {
  return currentLocale() === 'en' ? (type.nameEn ?? type.name) : type.name;
}

function typeView(type: PronosticTypeRow): Static<typeof PronosticTypeSchema> {
  const english = currentLocale() === 'en';
  return {
    id: type.id,
    name: typeName(type),
    slug: type.slug,
    description: english ? (type.descriptionEn ?? type.description) : type.description,
    difficulty: type.difficulty,
    active: type.active,
  };
}

function pronosticView(row: ShownPronostic): Static<typeof CreatedPronosticSchema> {
  return {
    id: row.id,
    type_id: row.typeId,
    status: row.status,
    credits_cost: row.creditsCost,
    teams_details: row.teamsDetails as TeamsDetailsInput,
    result: row.result ?? null,
    created_at: isoTimestamp(row.createdAt),
  };
}

/**
 * A listed pronostic as the JSON text the list answer's schema writes for `listedView`: the same
 * fields in the same order, `teams_details` and `result` as the stored json text (the same values,
 * in the spacing and key order they were written with), the time as `isoTimestamp` writes it.
 * test/pronostics/list-json.test.ts checks it deep-equals the schema's answer for every result shape.
 */
export function listedJson(row: ListedText): string {
  return `{"id":${row.id},"type_id":${row.typeId},"status":${JSON.stringify(row.status)},"credits_cost":${row.creditsCost},"teams_details":${row.teamsDetails},"result":${row.result ?? 'null'},"created_at":"${row.createdAt}","ai_model":${JSON.stringify(row.aiModel)}}`;
}

/**
 * What the detail's schema writes for the stand-ins its answer carries in place of `teams_details`
 * and `result`, which the route replaces with the stored texts (`spliceValues`).
 */
export const DETAIL_STAND_INS = {
  teamsDetails: { value: { home: '', away: '' }, written: '{"home":"","away":""}' },
  result: { value: null, written: 'null' },
} as const;

export function listedView(row: ShownPronostic): Static<typeof ListedPronostic> {
  return { ...pronosticView(row), ai_model: row.aiModel };
}

/** What `GET /api/user/pronostic/{id}` returns (also the data of the pronostic events). */
export function detailView(found: {
  pronostic: ShownPronostic;
  type: Static<typeof DetailedPronostic>['type'] & { nameEn: string | null };
}): Static<typeof DetailedPronostic> {
  const { id, slug, difficulty } = found.type;
  return { ...listedView(found.pronostic), type: { id, name: typeName(found.type), slug, difficulty } };
}

/** A type as the back office sees it: the users' view and when it was created. */
export type AdminPronosticType = Static<typeof AdminPronosticTypeSchema>;

/** Both languages side by side, whatever the console's language: the admin edits each. */
function adminTypeView(type: PronosticTypeRow): AdminPronosticType {
  return {
    id: type.id,
    name: type.name,
    slug: type.slug,
    description: type.description,
    difficulty: type.difficulty,
    active: type.active,
    name_en: type.nameEn,
    description_en: type.descriptionEn,
    created_at: isoTimestamp(type.createdAt),
  };
}

/** The back office's type edit and creation; their `is_active` is the type's `active`, renamed here only. */
type TypeEdit = Static<typeof UpdateTypeBody>;
type TypeCreation = Static<typeof CreateTypeBody>;

/** Trimmed text, or a 422 naming the field when nothing is left. */
function cleanText(field: string, value: string, min: number): string {
  const trimmed = value.trim();
  if (trimmed.length < min) throw ValidationFailed.field(field, messages.blankField);
  return trimmed;
}

/** A pronostic just created, and the credits left once it was paid for. */
export interface CreatedPronostic {
  pronostic: Static<typeof CreatedPronosticSchema>;
  creditsBalance: number;
}

type TeamsDetailsInput = NonNullable<CreateInput['teams_details']>;

function checkTeamsDetails(details: TeamsDetailsInput): void {
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
  /** Writes the audit rows of the back office's type edits. */
  audit: AuditRecorder;
  /** Names the model that will run the analysis (stored at creation). */
  modelName: string;
  /** Wakes the analysis workers once the row is committed. */
  wakeups: Wakeups;
  /** Moves balances with their ledger rows (money's ledger). */
  ledger: Ledger;
  /**
   * The account's language, which the analysis and the debit's ledger row are written in; and the
   * account held active under its row while the creation writes (a deletion waits, or wins: 401).
   */
  accounts: AccountLocales & {
    holdActive(tx: Transaction, userId: number): Promise<void>;
    /** Responsible play: 403 `self_excluded` while the account's pause lasts (no new analysis). */
    refuseIfSelfExcluded(tx: Transaction, userId: number): Promise<void>;
  };
  /**
   * The match data of a pronostic created from a fixture (`fixture_id`); the container always
   * passes it (a service built without it knows no fixture: 422 on `fixture_id`).
   */
  fixtures?: Pick<FixtureService, 'pick'>;
  /** Holds creates while the analysis queue is too deep (without it, creates are never held). */
  admission?: Pick<AnalysisAdmission, 'waitForRoom'>;
}

/** What an account's deletion and its data export need of the pronostics. */
function createAccountNeeds(db: Database, clock: Clock) {
  return {
    /**
     * In an account deletion's transaction: the user's pronostics soft-deleted and cut to what the
     * track record needs (repository `forgetOwner`); how many.
     */
    forgetOwner(tx: Transaction, userId: number): Promise<number> {
      return forgetOwner(tx, userId, clock.now());
    },

    /** A page of the user's pronostics (deleted ones too), after `afterId`, for their data export. */
    async exportPage(userId: number, afterId: number, limit: number) {
      const rows = await pronosticsForExport(db, userId, afterId, limit);
      return rows.map((row) => ({
        id: row.id,
        type: row.type,
        status: row.status,
        credits_cost: row.creditsCost,
        teams_details: row.teamsDetails,
        result: row.result,
        ai_model: row.aiModel,
        outcome: row.outcome,
        settled_at: row.settledAt === null ? null : isoTimestamp(row.settledAt),
        created_at: isoTimestamp(row.createdAt),
        deleted_at: row.deletedAt === null ? null : isoTimestamp(row.deletedAt),
      }));
    },
  };
}

/** What the slips module needs of the pronostics (issue 53): its legs' sources and settlement states. */
function createSlipNeeds(db: Database) {
  return {
    /** The caller's live successes among `ids`: fixture, finish time, whether a matrix is stored. */
    legSources(userId: number, ids: readonly number[]) {
      return legSources(db, userId, ids);
    },

    /** The stored results of the successes among `ids`, with their finish time. */
    legResults(ids: readonly number[]) {
      return legResults(db, ids);
    },

    /** The stored score matrices of `ids`, by pronostic (a slip's matches with two legs or more). */
    legMatrices(ids: readonly number[]) {
      return legMatrices(db, ids);
    },

    /** Any pronostics among `ids`: their settlement, fixture, match and when they were made. */
    settlementStates(ids: readonly number[]) {
      return settlementStates(db, ids);
    },
  };
}

/** The back office's reads of pronostics: any user's list and counts, the figures by day. */
function createBackOfficeReads(db: Database) {
  return {
    /** Any user's pronostics for the back office, deleted ones included (flagged), newest first. */
    async listForAdmin(userId: number, query: { page?: number; per_page?: number }) {
      const page = pageRequest(query);
      const [rows, total] = await Promise.all([
        listAllPronosticsOf(db, userId, { limit: page.perPage, offset: offsetOf(page) }),
        countAllPronosticsOf(db, userId),
      ]);
      return {
        pronostics: rows.map((row) => ({
          ...listedView(row),
          deleted: row.deletedAt !== null,
          deleted_at: row.deletedAt === null ? null : isoTimestamp(row.deletedAt),
        })),
        meta: pageMeta(page, total),
      };
    },

    /** A user's live pronostics counted by status (the back office's user detail). */
    async countsOf(userId: number) {
      const counts = await countPronosticsByStatus(db, userId);
      const of = (status: PronosticStatus) => counts.find((row) => row.status === status)?.total ?? 0;
      return {
        total: counts.reduce((sum, row) => sum + row.total, 0),
        processing: of('processing'),
        success: of('success'),
        cancelled: of('cancelled'),
      };
    },

    /** How many live (not cancelled) pronostics each fixture has, by fixture id (the back office's fixtures). */
    countByFixtures(fixtureIds: readonly number[]): Promise<Map<number, number>> {
      return countByFixtures(db, fixtureIds);
    },

    /** Pronostics created per UTC day and status (the back office's figures). */
    byDayAndStatus(range: { from: string; before: string }) {
      return pronosticsByDayAndStatus(db, range);
    },
  };
}

/** The back office's edits of the pronostic types, each audited in its transaction. */
function createTypeAdmin(db: Database, audit: AuditRecorder) {
  return {
    /** Every type, inactive ones included. */
    async listAllTypes(): Promise<AdminPronosticType[]> {
      return (await listAllTypes(db)).map(adminTypeView);
    },

    /** Edits a type; users' list and new pronostics see it at once. Audited; no change, no row. */
    async updateType(admin: { id: number }, id: number, input: TypeEdit): Promise<AdminPronosticType> {
      const wanted: TypeChanges = {
        ...(input.name !== undefined ? { name: cleanText('name', input.name, 2) } : {}),
        ...(input.description !== undefined
          ? { description: cleanText('description', input.description, 3) }
          : {}),
        ...(input.name_en !== undefined ? { nameEn: cleanText('name_en', input.name_en, 2) } : {}),
        ...(input.description_en !== undefined
          ? { descriptionEn: cleanText('description_en', input.description_en, 3) }
          : {}),
        ...(input.difficulty !== undefined ? { difficulty: input.difficulty } : {}),
        ...(input.is_active !== undefined ? { active: input.is_active } : {}),
      };
      if (Object.keys(wanted).length === 0) {
        throw ValidationFailed.field('body', messages.pronosticTypeNothingToChange);
      }
      return db.transaction(async (tx) => {
        const current = await lockType(tx, id);
        if (!current) throw new NotFound(messages.pronosticTypeNotFound);
        const changes = Object.fromEntries(
          Object.entries(wanted).filter(([key, value]) => current[key as keyof TypeChanges] !== value),
        ) as TypeChanges;
        if (Object.keys(changes).length === 0) return adminTypeView(current);
        const updated = await updateType(tx, id, changes);
        const before = Object.fromEntries(
          Object.keys(changes).map((key) => [key, current[key as keyof TypeChanges]]),
        );
        await audit.record(tx, {
          adminId: admin.id,
          action: 'pronostic_type.update',
          targetType: 'pronostic_type',
          targetId: id,
          details: { before, after: changes },
        });
        return adminTypeView(updated);
      });
    },

    /**
     * A type for a market the engine answers (`pronosticTypeSlugs`, else 422 on `slug`); one type
     * per market (409 when the slug has one). Audited in the same transaction.
     */
    async createType(admin: { id: number }, input: TypeCreation): Promise<AdminPronosticType> {
      if (!(pronosticTypeSlugs as readonly string[]).includes(input.slug)) {
        throw ValidationFailed.field('slug', messages.pronosticTypeUnknownSlug);
      }
      const values = {
        slug: input.slug as PronosticTypeSlug,
        name: cleanText('name', input.name, 2),
        description: cleanText('description', input.description, 3),
        nameEn: input.name_en === undefined ? null : cleanText('name_en', input.name_en, 2),
        descriptionEn:
          input.description_en === undefined ? null : cleanText('description_en', input.description_en, 3),
        difficulty: input.difficulty,
        active: input.is_active ?? true,
      };
      try {
        return await db.transaction(async (tx) => {
          const row = await insertTypeIfAbsent(tx, values);
          if (!row) throw new PronosticTypeExists();
          await audit.record(tx, {
            adminId: admin.id,
            action: 'pronostic_type.create',
            targetType: 'pronostic_type',
            targetId: row.id,
            details: { ...values },
          });
          return adminTypeView(row);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'pronostic_types_slug_unique')) throw new PronosticTypeExists();
        throw error;
      }
    },
  };
}

export function createPronosticService({
  db,
  clock,
  admission,
  audit,
  modelName,
  wakeups,
  ledger,
  accounts,
  fixtures,
}: PronosticServiceDeps) {
  function pickFixture(fixtureId: number) {
    if (!fixtures) throw ValidationFailed.field('fixture_id', messages.fixtureUnknown);
    return fixtures.pick(fixtureId);
  }

  /**
   * The live row (its json columns as stored text) and its type, if `user` owns it: NotFound when
   * there is none, NotOwner when it is another's.
   */
  async function findOwned(user: AuthUser, id: number) {
    const found = await findLivePronosticText(db, id);
    if (!found) throw new NotFound(messages.pronosticNotFound);
    if (found.userId !== user.id) throw new NotOwner(messages.pronosticForbidden);
    return found;
  }

  return {
    async listTypes() {
      return (await listActiveTypes(db)).map(typeView);
    },

    ...createAccountNeeds(db, clock),
    ...createSlipNeeds(db),

    /**
     * Creates the pronostic and debits its cost, or throws InsufficientCredits having changed nothing.
     * The row is in `processing`: the worker picks it up once it is committed.
     */
    async create(
      user: AuthUser,
      input: CreateInput,
      commit: IdempotentCommit<CreatedPronostic> = withoutKey,
    ): Promise<CreatedPronostic> {
      // Without a fixture, the spec's free-text form: teams_details is required, exactly as before.
      if (input.fixture_id === undefined && input.teams_details === undefined) {
        throw ValidationFailed.field('teams_details', validationMessages.required('teams_details'));
      }
      const type = await findActiveType(db, input.type_id);
      if (!type) throw ValidationFailed.field('type_id', messages.unknownPronosticType);
      // From a fixture: its match data, over any other keys the client sent (kept as sent).
      const details: TeamsDetailsInput =
        input.fixture_id === undefined
          ? input.teams_details!
          : ({ ...input.teams_details, ...(await pickFixture(input.fixture_id)) } as TeamsDetailsInput);
      checkTeamsDetails(details);
      // Before any write: a create refused here has debited nothing.
      await admission?.waitForRoom();
      const now = clock.now();
      const created = await db.transaction(async (tx) => {
        await accounts.holdActive(tx, user.id);
        await accounts.refuseIfSelfExcluded(tx, user.id);
        // The account's language at creation: the narration is written in it, and the row keeps it.
        const locale = await accounts.localeOf(tx, user.id);
        const row = await insertPronostic(tx, {
          userId: user.id,
          locale,
          typeId: type.id,
          creditsCost: type.difficulty,
          teamsDetails: details,
          aiModel: modelName,
          searchText: searchTextOf(details),
          runAfter: now.toISOString(),
          deadlineAt: addSeconds(now, ANALYSIS_DEADLINE_SECONDS).toISOString(),
          idempotencyKeyId: commit.keyId,
          fixtureId: input.fixture_id ?? null,
        });
        await countCreated(tx, user.id);
        // A short balance throws, rolling the insert back: no pronostic without its debit.
        const debit = await ledger.spendCredits(tx, {
          userId: user.id,
          credits: type.difficulty,
          type: 'pronostic_debit',
          description: `${catalogueFor(locale).messages.pronosticDebitDescription} #${row.id} (${type.name})`,
          reference: `pronostic:${row.id}:debit`,
        });
        const result = { pronostic: pronosticView(row), creditsBalance: debit.balanceAfter };
        await commit.store(tx, result);
        return result;
      });
      wakeups.send(channels.pronosticCreated, String(created.pronostic.id));
      return created;
    },

    /**
     * A page of the user's pronostics: each row already JSON text (`listedJson`), which the route
     * splices into its answer, so the rows' 1-2 KB analyses are never parsed and serialized again.
     */
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
        ...(query.type_id !== undefined ? { typeId: query.type_id } : {}),
      };
      const range = { limit: page.perPage, offset: offsetOf(page) };
      // The page comes with its total: the live counter unfiltered, the filter's count filtered. An
      // unfiltered page past the end has no row to carry the counter: it is read alone.
      const { rows, total } = await listPronosticsText(db, filter, range);
      return {
        pronostics: rows.map(listedJson),
        meta: pageMeta(page, total ?? (await liveCount(db, user.id))),
      };
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

    /**
     * The owner's pronostic with its type, for the route to splice: the view with stand-ins for
     * `teams_details` and `result` (`DETAIL_STAND_INS`), and their stored json text, never parsed.
     */
    async getOwn(user: AuthUser, id: number) {
      const { pronostic, type } = await findOwned(user, id);
      const standIns = {
        teamsDetails: DETAIL_STAND_INS.teamsDetails.value,
        result: DETAIL_STAND_INS.result.value,
      };
      return {
        pronostic: detailView({ pronostic: { ...pronostic, ...standIns }, type }),
        teamsDetails: pronostic.teamsDetails,
        result: pronostic.result,
      };
    },

    ...createBackOfficeReads(db),
    ...createTypeAdmin(db, audit),

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
