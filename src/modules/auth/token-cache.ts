// Checked bearer tokens, kept in memory for a few seconds so most requests skip the token lookup.
// An entry only saves the read: every hit re-checks the absolute lifetime and the idle window, and
// a hit whose last_used_at write is due gathers it as a lookup would (tokens.ts); an entry is read
// again once its TOKEN_CACHE_SECONDS are over. Invalidation is exact rather than timed: the database
// announces every change to a token or a user on `auth_changed` (triggers, migration 0011), and
// every process forgets the entries it names. The cache answers only while it hears those
// announcements: before its LISTEN, and from a lost connection until a new one listens, it is empty
// and every request reads the database. A lookup that raced an announcement is not stored.
import type { UserStatus } from '../../lib/allowed-values.js';

export interface CachedToken<User> {
  user: User;
  status: UserStatus;
  tokenId: number;
  issuedAtMs: number;
  /** The stored last_used_at (or this process's own write of it). */
  lastUsedAtMs: number;
  /** When the database was read; the entry is dropped `ttlMs` later. */
  readAtMs: number;
}

export class TokenCache<User extends { id: number }> {
  readonly #entries = new Map<string, CachedToken<User>>();
  /** Bumped by every invalidation: a lookup that started before one must not store its answer. */
  #generation = 0;
  #listening = false;

  constructor(
    readonly ttlMs: number,
    readonly maxEntries = 20_000,
  ) {}

  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Whether it answers at all: on, and hearing the database's announcements. */
  get active(): boolean {
    return this.ttlMs > 0 && this.#listening;
  }

  get(key: string, nowMs: number): CachedToken<User> | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (!this.active || nowMs - entry.readAtMs >= this.ttlMs || nowMs < entry.readAtMs) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Stores what a lookup read, unless an invalidation came since it started (`generation`). */
  set(key: string, entry: CachedToken<User>, generation: number): void {
    if (!this.active || generation !== this.#generation) return;
    this.#entries.delete(key);
    // Oldest first: a full cache drops the entry read longest ago.
    if (this.#entries.size >= this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.set(key, entry);
  }

  forgetToken(tokenId: number): void {
    this.#generation += 1;
    for (const [key, entry] of this.#entries) if (entry.tokenId === tokenId) this.#entries.delete(key);
  }

  forgetUser(userId: number): void {
    this.#generation += 1;
    for (const [key, entry] of this.#entries) if (entry.user.id === userId) this.#entries.delete(key);
  }

  clear(): void {
    this.#generation += 1;
    this.#entries.clear();
  }

  /** An `auth_changed` payload: `token:<id>`, `user:<id>`, or anything else (`all`) to forget everything. */
  apply(payload: string): void {
    const [kind, id] = payload.split(':');
    const number = Number(id);
    if (kind === 'token' && Number.isInteger(number)) this.forgetToken(number);
    else if (kind === 'user' && Number.isInteger(number)) this.forgetUser(number);
    else this.clear();
  }

  /** Announcements are heard from now on. */
  listening(): void {
    this.#listening = true;
  }

  /** Announcements may be missed from now on: forget everything and answer nothing. */
  deaf(): void {
    this.#listening = false;
    this.clear();
  }
}
