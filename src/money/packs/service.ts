// The credit packs on sale: the active ones by price for users and for checkout (`findActive`), and
// the back office's list, creation, edit and (de)activation. Each admin change and its audit row
// are one transaction; a change that changes nothing writes no audit row.
import type { Static } from 'typebox';
import type { Database } from '../../db/client.js';
import { NotFound, ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { isoTimestamp } from '../../lib/time.js';
import type { AuditRecorder } from '../../modules/admin/service.js';
import {
  findActivePack,
  insertPack,
  listActivePacks,
  lockPack,
  type PackChanges,
  type PackRow,
  pageOfPacks,
  updatePack,
} from './repository.js';
import type {
  AdminPackListQuery,
  AdminPackSchema,
  CreatePackBody,
  PackSchema,
  UpdatePackBody,
} from './schemas.js';

/** A pack on sale, as users and checkout see it. */
export type Pack = Static<typeof PackSchema>;
export type AdminPack = Static<typeof AdminPackSchema>;

function packView(row: PackRow): Pack {
  return { id: row.id, name: row.name, credits: row.credits, price: row.price, currency: row.currency };
}

function adminPackView(row: PackRow): AdminPack {
  return {
    ...packView(row),
    active: row.active,
    created_at: isoTimestamp(row.createdAt),
    updated_at: isoTimestamp(row.updatedAt),
  };
}

/** The name as stored: trimmed, and still 2 characters or more once trimmed. */
function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 2) throw ValidationFailed.field('name', messages.packNameBlank);
  return trimmed;
}

export interface PackServiceDeps {
  db: Database;
  audit: AuditRecorder;
}

export function createPackService({ db, audit }: PackServiceDeps) {
  /** Locks the pack, applies `changes` and writes the audit row `action`, all in one transaction. */
  async function change(
    admin: { id: number },
    id: number,
    decide: (current: PackRow) => { changes: PackChanges; action: string } | undefined,
  ): Promise<AdminPack> {
    return db.transaction(async (tx) => {
      const current = await lockPack(tx, id);
      if (!current) throw new NotFound(messages.packNotFound);
      const decision = decide(current);
      if (!decision) return adminPackView(current);
      const updated = await updatePack(tx, id, decision.changes);
      const before = Object.fromEntries(
        Object.keys(decision.changes).map((key) => [key, current[key as keyof PackChanges]]),
      );
      await audit.record(tx, {
        adminId: admin.id,
        action: decision.action,
        targetType: 'pack',
        targetId: id,
        details: { before, after: decision.changes },
      });
      return adminPackView(updated);
    });
  }

  return {
    /** The packs on sale, cheapest first. */
    async listActive(): Promise<Pack[]> {
      return (await listActivePacks(db)).map(packView);
    },

    /** The pack if it exists and is on sale (checkout's check), else undefined. */
    async findActive(id: number): Promise<Pack | undefined> {
      const row = await findActivePack(db, id);
      return row ? packView(row) : undefined;
    },

    /** Every pack, on sale or not, newest first. */
    async listAll(query: Static<typeof AdminPackListQuery>) {
      const page = pageRequest(query);
      const { rows, total } = await pageOfPacks(db, page);
      return { packs: rows.map(adminPackView), meta: pageMeta(page, total) };
    },

    /** A new pack, on sale at once. */
    async create(admin: { id: number }, input: Static<typeof CreatePackBody>): Promise<AdminPack> {
      const values = { name: cleanName(input.name), credits: input.credits, price: input.price };
      return db.transaction(async (tx) => {
        const row = await insertPack(tx, values);
        await audit.record(tx, {
          adminId: admin.id,
          action: 'pack.create',
          targetType: 'pack',
          targetId: row.id,
          details: values,
        });
        return adminPackView(row);
      });
    },

    /** Changes the given fields; payments already started keep their own snapshot of price and credits. */
    async update(
      admin: { id: number },
      id: number,
      input: Static<typeof UpdatePackBody>,
    ): Promise<AdminPack> {
      if (input.name === undefined && input.credits === undefined && input.price === undefined) {
        throw ValidationFailed.field('body', messages.packNothingToChange);
      }
      const wanted: PackChanges = {
        ...(input.name !== undefined ? { name: cleanName(input.name) } : {}),
        ...(input.credits !== undefined ? { credits: input.credits } : {}),
        ...(input.price !== undefined ? { price: input.price } : {}),
      };
      return change(admin, id, (current) => {
        const changes = Object.fromEntries(
          Object.entries(wanted).filter(([key, value]) => current[key as keyof PackChanges] !== value),
        ) as PackChanges;
        return Object.keys(changes).length > 0 ? { changes, action: 'pack.update' } : undefined;
      });
    },

    /** Puts the pack on sale or takes it off; already so, nothing happens. */
    async setActive(admin: { id: number }, id: number, active: boolean): Promise<AdminPack> {
      return change(admin, id, (current) =>
        current.active === active
          ? undefined
          : { changes: { active }, action: active ? 'pack.activate' : 'pack.deactivate' },
      );
    },
  };
}

export type PackService = ReturnType<typeof createPackService>;
