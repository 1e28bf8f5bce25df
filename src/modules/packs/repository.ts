// The packs module's queries (only what the wallet's checkout needs so far).
import { and, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { packs } from '../../db/schema/index.js';

/** The pack on sale with this id, if it is active. */
export async function findActivePack(db: Executor, id: number) {
  const [row] = await db
    .select({
      id: packs.id,
      name: packs.name,
      credits: packs.credits,
      price: packs.price,
      currency: packs.currency,
    })
    .from(packs)
    .where(and(eq(packs.id, id), eq(packs.active, true)));
  return row;
}
