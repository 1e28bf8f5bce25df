// Column helpers shared by every table: timestamps keep the database's microseconds and are read
// as text (see lib/time.ts), so no precision is lost on the way to the client.
import { sql } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

export const timestamptz = (name: string) =>
  timestamp(name, { withTimezone: true, precision: 6, mode: 'string' });

export const createdAt = () => timestamptz('created_at').notNull().default(sql`now()`);
