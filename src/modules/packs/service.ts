// Credit packs: what other modules may ask about the packs on sale (the checkout reads one here).
import type { Database } from '../../db/client.js';
import { findActivePack } from './repository.js';

export function createPackService({ db }: { db: Database }) {
  return {
    /** The active pack with this id, or undefined when it does not exist or is not on sale. */
    findActive(id: number) {
      return findActivePack(db, id);
    },
  };
}

export type PackService = ReturnType<typeof createPackService>;
