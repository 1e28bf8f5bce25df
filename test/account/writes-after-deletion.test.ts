// Writes already past authentication when an account's deletion commits (issues 42 and 55): a
// checkout, an avatar upload, a profile edit, a ticket, a device registration and a pronostic each answer 401 `Non authentifié.` with nothing written,
// no file left in storage and no provider called. On both databases, the write's service is called
// just after the deletion committed, as a request that authenticated before it reaches it (these
// fail without the check under the account's row). On PostgreSQL, each write is also sent through
// HTTP while the deletion's transaction is held open (a trigger pauses its audit row, after every
// lock): the write waits (on its token or the account's row) and answers 401, never writing.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, pronostics, pushDevices, supportTickets, users } from '../../src/db/schema/index.js';
import { Unauthenticated } from '../../src/lib/errors.js';
import { createTestApp, type SignedIn, signIn, type TestApp, usingPostgres } from '../helpers.js';
import { filesUnder, multipart, photo, temporaryDataDir } from '../profile/forms.js';
import { deleteAccount, deletionCode } from './helpers.js';

let t: TestApp;
let dataDir: string;

beforeAll(async () => {
  dataDir = temporaryDataDir();
  t = await createTestApp({ config: { dataDir } });
});
afterAll(() => t.close());

async function nothingWrittenFor(user: SignedIn): Promise<void> {
  expect(await t.app.db.select().from(payments).where(eq(payments.userId, user.id))).toEqual([]);
  expect(await t.app.db.select().from(supportTickets).where(eq(supportTickets.userId, user.id))).toEqual([]);
  expect(await t.app.db.select().from(pushDevices).where(eq(pushDevices.userId, user.id))).toEqual([]);
  expect(await t.app.db.select().from(pronostics).where(eq(pronostics.userId, user.id))).toEqual([]);
  const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
  expect(row).toMatchObject({ status: 'deleted', name: null, username: null, avatarPath: null });
  const files = await filesUnder(dataDir);
  expect(files.filter((file) => file.includes(`/${user.id}-`))).toEqual([]);
}

async function deleted(options: { credits?: number } = {}): Promise<SignedIn> {
  const user = await signIn(t, options);
  const answer = await deleteAccount(t, user, { code: await deletionCode(t, user) });
  expect(answer.statusCode, answer.body).toBe(200);
  return user;
}

const fcmToken = (user: SignedIn) => `after-deletion-${user.id}:APA91b${'q'.repeat(140)}`;
const match = { home: 'Canon Yaoundé', away: 'Coton Sport' };

const authUser = (user: SignedIn) => ({ id: user.id, role: 'user' as const, status: 'active' as const });

describe('a write authenticated before the deletion committed', () => {
  it('checkout: 401, no payment, no charge', async () => {
    const user = await deleted();
    const checkout = t.app.services.payments.checkout(authUser(user) as never, {
      pack_id: 1,
      phone: user.phone,
    });
    await expect(checkout).rejects.toBeInstanceOf(Unauthenticated);
    await nothingWrittenFor(user);
  });

  it('avatar: 401, the stored file removed', async () => {
    const user = await deleted();
    const webp = new Uint8Array(await photo(32, 32, 'webp'));
    await expect(t.app.services.profile.changeAvatar(user, webp)).rejects.toBeInstanceOf(Unauthenticated);
    await nothingWrittenFor(user);
  });

  it('profile edit: 401, nothing changed', async () => {
    const user = await deleted();
    await expect(t.app.services.profile.update(user, { name: 'Revenant' })).rejects.toBeInstanceOf(
      Unauthenticated,
    );
    await nothingWrittenFor(user);
  });

  it('device registration: 401, no device', async () => {
    const user = await deleted();
    const register = t.app.services.devices.register(user, { token: fcmToken(user), platform: 'android' });
    await expect(register).rejects.toBeInstanceOf(Unauthenticated);
    await nothingWrittenFor(user);
  });

  it('pronostic creation: 401, no pronostic, no debit', async () => {
    const user = await deleted({ credits: 5 });
    const create = t.app.services.pronostics.create(authUser(user) as never, {
      type_id: 1,
      teams_details: match,
    });
    await expect(create).rejects.toBeInstanceOf(Unauthenticated);
    await nothingWrittenFor(user);
  });

  it('ticket: 401, no ticket, its attachment removed', async () => {
    const user = await deleted();
    const attachment = await photo(32, 32);
    const create = t.app.services.support.create(user, async (store) => {
      const { Readable } = await import('node:stream');
      await store(Readable.from([attachment]), 'capture.png');
      return { subject: 'Mon paiement', message: 'Il reste en attente depuis hier.' };
    });
    await expect(create).rejects.toBeInstanceOf(Unauthenticated);
    await nothingWrittenFor(user);
  });
});

describe.runIf(usingPostgres())('each write racing a deletion over HTTP (PostgreSQL)', () => {
  beforeAll(async () => {
    await t.app.db.execute(sql`
      CREATE FUNCTION slow_deletion_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.action = 'user.delete' THEN PERFORM pg_sleep(1.5); END IF; RETURN NEW; END $$`);
    await t.app.db.execute(sql`
      CREATE TRIGGER slow_deletion_audit BEFORE INSERT ON audit_log
      FOR EACH ROW EXECUTE FUNCTION slow_deletion_audit()`);
  });

  /** Starts the deletion and resolves once its transaction holds every lock and sleeps in the audit insert. */
  async function deletionUnderWay(user: SignedIn) {
    const code = await deletionCode(t, user);
    const answer = deleteAccount(t, user, { code });
    for (let i = 0; i < 200; i++) {
      const sleeping = await t.app.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event = 'PgSleep'`,
      );
      const row = (sleeping as unknown as { rows: { n: number }[] }).rows[0];
      if (row!.n > 0) return answer;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('the deletion never reached its audit row');
  }

  const writes: Record<string, (user: SignedIn) => Promise<{ statusCode: number; body: string }>> = {
    checkout: (user) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/wallet/checkout',
        headers: user.headers,
        payload: { pack_id: 1, phone: user.phone },
      }),
    avatar: async (user) => {
      const form = await multipart([['avatar', await photo(64, 64), 'moi.png', 'image/png']]);
      return t.app.inject({
        method: 'POST',
        url: '/api/user/profile/avatar',
        headers: { ...form.headers, ...user.headers },
        payload: form.payload,
      });
    },
    'profile edit': (user) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/profile/update',
        headers: user.headers,
        payload: { name: 'Revenant' },
      }),
    'device registration': (user) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/devices',
        headers: user.headers,
        payload: { token: fcmToken(user), platform: 'android' },
      }),
    'pronostic creation': (user) =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/pronostics',
        headers: user.headers,
        payload: { type_id: 1, teams_details: match },
      }),
    ticket: async (user) => {
      const form = await multipart([
        ['subject', 'Mon paiement'],
        ['message', 'Il reste en attente depuis hier.'],
        ['attachment', await photo(32, 32), 'capture.png', 'image/png'],
      ]);
      return t.app.inject({
        method: 'POST',
        url: '/api/user/support/ticket/create',
        headers: { ...form.headers, ...user.headers },
        payload: form.payload,
      });
    },
  };

  for (const [name, write] of Object.entries(writes)) {
    it(`${name}: 401 Non authentifié., nothing written`, async () => {
      const user = await signIn(t, { credits: 5 });
      const deletion = await deletionUnderWay(user);
      const answer = await write(user);
      expect((await deletion).statusCode).toBe(200);
      expect(answer.statusCode, answer.body).toBe(401);
      expect(JSON.parse(answer.body).message).toBe('Non authentifié.');
      await nothingWrittenFor(user);
    });
  }
});
