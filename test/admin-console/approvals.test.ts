// Four eyes in the admin console, in Chromium (fixture: ./setup.ts; issue 55): the browser admin
// asks for a promotion from the user's screen and is told a second admin must confirm; the
// Approvals screen lists it pending with who asked, and refuses the asker's own confirmation with
// the service's reason; a request another admin makes appears live, and the browser admin confirms
// it there: the account is an admin, the approval confirmed, both audited.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { signIn } from '../helpers.js';
import { type ConsoleFixture, runBrowserTests, startConsole } from './setup.js';

describe.skipIf(!runBrowserTests)('four eyes in the admin console (Chromium)', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole();
  }, 120_000);
  afterAll(() => f?.close());

  const roleOf = async (id: number) =>
    (await f.t.app.db.select({ role: users.role }).from(users).where(eq(users.id, id)))[0]!.role;

  it('asks for a promotion, shows it pending, refuses the asker, and a second admin confirms', async () => {
    const page = await f.newPage();
    await f.signInThroughUi(page, f.adminPhone);
    await page.getByRole('link', { name: 'Tableau de bord' }).waitFor();

    // 1. The browser admin asks to promote a user: nothing changes yet.
    const target = await signIn(f.t);
    await page.goto(`${f.base}/admin/utilisateurs/${target.id}`);
    await page.getByRole('button', { name: 'Nommer administrateur' }).click();
    await f.status(page, 'un second administrateur doit la confirmer dans Approbations');
    expect(await roleOf(target.id)).toBe('user');

    // 2. The Approvals screen lists it with who asked; confirming one's own is refused.
    await page.getByRole('link', { name: 'Approbations' }).click();
    await page.getByRole('heading', { name: 'Approbations', level: 1 }).waitFor();
    const [pending] = (await f.t.app.services.approvals.list({ status: 'pending' })).approvals;
    const card = page.locator(`li[data-approval="${pending!.id}"]`);
    await card.waitFor();
    expect(await card.textContent()).toContain('Promotion en administrateur');
    expect(await card.locator('[data-field="requested-by"]').textContent()).toContain(
      `n° ${pending!.requested_by}`,
    );
    await card.getByRole('button', { name: 'Confirmer' }).click();
    await f.status(page, 'Vous avez demandé cette action : un autre administrateur doit la confirmer');
    expect(await roleOf(target.id)).toBe('user');
    // The other admin rejects it (through the API): it leaves the pending list.
    const rejected = await f.t.app.inject({
      method: 'POST',
      url: `/api/admin/approvals/${pending!.id}/reject`,
      headers: f.admin.headers,
    });
    expect(rejected.statusCode).toBe(200);

    // 3. Another admin asks (through the API): the request appears live; the browser admin confirms.
    const asked = await f.t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${target.id}/role`,
      headers: f.admin.headers,
      payload: { role: 'admin' },
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const id = asked.json().data.approval.id as number;
    const theirs = page.locator(`li[data-approval="${id}"]`);
    await theirs.waitFor();
    expect(await theirs.locator('[data-field="requested-by"]').textContent()).toContain(`n° ${f.admin.id}`);
    await theirs.getByRole('button', { name: 'Confirmer' }).click();
    await f.status(page, `Approbation n° ${id} confirmée`);
    expect(await roleOf(target.id)).toBe('admin');

    // Confirmed ones are listed under their status, with who decided.
    await page.getByLabel('Statut').selectOption('confirmed');
    await page.locator(`li[data-approval="${id}"] [data-field="decided-by"]`).waitFor();
    const audit = await f.t.app.inject({
      method: 'GET',
      url: '/api/admin/audit?target_type=approval&per_page=50',
      headers: f.admin.headers,
    });
    const actions = audit.json().data.entries.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(['approval.request', 'approval.reject', 'approval.confirm']),
    );
    expect(f.pageErrors).toEqual([]);
    await page.context().close();
  }, 90_000);
});
