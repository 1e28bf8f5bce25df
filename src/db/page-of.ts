// The list-and-count pair every paged list runs: one page of a table's rows under a filter, in a
// stable order, and how many rows the filter matches in all (the spec's `meta.total`). Both
// queries share the one filter, so the page and the total never disagree about what is listed.
import { count, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { offsetOf, type PageRequest } from '../lib/pagination.js';
import type { Executor } from './client.js';

export interface Paged<Row> {
  rows: Row[];
  total: number;
}

export interface PagedQuery {
  where: SQL | undefined;
  /** Ends with a unique column (the id), so a page boundary never falls between equal rows. */
  orderBy: ReadonlyArray<SQL | PgColumn>;
}

export async function pageOf<T extends PgTable>(
  db: Executor,
  table: T,
  query: PagedQuery,
  page: PageRequest,
): Promise<Paged<T['$inferSelect']>> {
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(query.where)
      .orderBy(...query.orderBy)
      .limit(page.perPage)
      .offset(offsetOf(page)),
    db
      .select({ total: count() })
      .from(table as PgTable)
      .where(query.where),
  ]);
  return { rows: rows as T['$inferSelect'][], total: Number(counted[0]?.total ?? 0) };
}
