// The admin console in a real browser (fixture: ./setup.ts): an admin signs in with a one-time code
// read from the test outbox, approves one withdrawal and rejects another, replies to a ticket,
// adjusts a user's credits and sees the ledger row; a user without the admin role is refused; and a
// keyboard-only pass signs in and deactivates a pack with Tab and Enter, the focus visibly moving.
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '../../src/db/schema/index.js';
import { expectLedgerConsistent, nextPhone } from '../helpers.js';
import { type ConsoleFixture, OUT, runBrowserTests, startConsole } from './setup.js';

describe.skipIf(!runBrowserTests)('the admin console in Chromium', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole();
    // A Vite build, a fresh database and Chromium: a loaded machine needs more than the default.
  }, 120_000);
  afterAll(() => f?.close());

  it('lets an admin approve and reject withdrawals, reply to a ticket and adjust credits', async () => {
    const page = await f.newPage();
    await f.signInThroughUi(page, f.adminPhone);
    await page.getByRole('heading', { name: 'Tableau de bord', level: 1 }).waitFor();
    await expect(page.locator('[data-cell="withdrawals-pending"]').textContent()).resolves.toBe('2');

    await page.getByRole('link', { name: 'Retraits' }).click();
    const approveCard = page.locator(`[data-withdrawal="${f.toApprove}"]`);
    await approveCard.getByLabel(/Message à l’utilisateur/).fill('Vérifié par le support');
    await approveCard.getByRole('button', { name: 'Approuver' }).click();
    await f.status(page, `Retrait n° ${f.toApprove} approuvé.`);
    const rejectCard = page.locator(`[data-withdrawal="${f.toReject}"]`);
    await rejectCard.getByLabel(/Message à l’utilisateur/).fill('Numéro incorrect');
    await rejectCard.getByRole('button', { name: 'Refuser' }).click();
    await f.status(page, `Retrait n° ${f.toReject} refusé et remboursé.`);
    const rows = await f.t.app.db.select().from(withdrawals).where(eq(withdrawals.id, f.toApprove));
    expect(rows[0]).toMatchObject({ decision: 'approved', decisionMessage: 'Vérifié par le support' });
    const rejected = await f.t.app.db.select().from(withdrawals).where(eq(withdrawals.id, f.toReject));
    expect(rejected[0]).toMatchObject({ status: 'cancelled', decision: 'rejected' });

    await page.getByRole('link', { name: 'Support' }).click();
    await page.getByRole('link', { name: 'Retrait non reçu' }).click();
    await page.getByLabel('Votre réponse').fill('Votre retrait a été envoyé ce matin.');
    await page.getByRole('button', { name: 'Répondre' }).click();
    await f.status(page, 'Réponse envoyée.');
    await page
      .locator('.thread .from-support', { hasText: 'Votre retrait a été envoyé ce matin.' })
      .waitFor();
    const ticket = await f.t.app.inject({
      method: 'GET',
      url: `/api/admin/tickets/${f.ticketId}`,
      headers: f.admin.headers,
    });
    expect(ticket.json().data.ticket).toMatchObject({
      status: 'answered',
      replies: [{ author: 'support', message: 'Votre retrait a été envoyé ce matin.' }],
    });

    await page.getByRole('link', { name: 'Utilisateurs' }).click();
    await page.getByLabel('Téléphone, nom ou pseudo').fill(f.customer.phone.slice(4));
    await page.getByRole('button', { name: 'Rechercher' }).click();
    await page.getByRole('link', { name: f.customer.phone }).click();
    await page
      .getByRole('heading', { name: `Utilisateur n° ${f.customer.id} · ${f.customer.phone}` })
      .waitFor();
    await page.getByLabel('Montant (négatif pour retirer)').fill('250');
    await page.getByLabel('Motif').fill('Geste commercial après incident');
    await page.getByRole('button', { name: 'Enregistrer l’ajustement' }).click();
    await f.status(page, '+250 crédits enregistrés.');
    const ledgerRow = page.locator('[data-table="ledger"] tbody tr', {
      hasText: 'Geste commercial après incident',
    });
    await ledgerRow.waitFor();
    await expect(ledgerRow.textContent()).resolves.toContain('+250 crédits');
    const operations = await f.t.app.inject({
      method: 'GET',
      url: `/api/admin/users/${f.customer.id}/operations`,
      headers: f.admin.headers,
    });
    const operation = operations.json().data.operations[0];
    expect(operation).toMatchObject({ type: 'admin_adjustment', currency: 'credits', amount: 250 });
    await expect(page.locator('[data-field="credits"]').textContent()).resolves.toBe(
      String(operation.balance_after),
    );
    await expectLedgerConsistent(f.t);

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(f.pageErrors).toEqual([]);
  }, 60_000);

  it('refuses a user without the admin role, with no admin data on screen', async () => {
    const page = await f.newPage();
    const adminCalls: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/admin/')) adminCalls.push(response.status());
    });
    await f.signInThroughUi(page, nextPhone());
    await page.locator('[role="status"]', { hasText: 'Accès réservé aux administrateurs' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Écrans' }).count()).toBe(0);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(adminCalls).toEqual([403]);
    // A deep link does not get past the sign-in either.
    await page.goto(`${f.base}/admin/utilisateurs`);
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await page.screenshot({ path: join(OUT, 'admin-refused.png'), fullPage: true });
  }, 30_000);

  it('works with the keyboard alone: sign in, then deactivate a pack, the focus visible at each step', async () => {
    const page = await f.newPage();
    await page.goto(`${f.base}/admin`);
    interface Focused {
      tag: string;
      label: string;
      name: string | null;
      visible: boolean;
    }
    // The focused element and whether its focus ring shows (run in the page).
    const focused = () =>
      page.evaluate(`(() => {
        const el = document.activeElement;
        if (!el || el === document.body) return null;
        const style = getComputedStyle(el);
        return {
          tag: el.tagName.toLowerCase(),
          label: (el.getAttribute('aria-label') ?? el.textContent ?? '').trim(),
          name: el.getAttribute('name'),
          visible: style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0,
        };
      })()`) as Promise<Focused | null>;
    /** Tab until `match` holds, each focused element showing its focus ring. */
    const tabTo = async (match: (f: Focused) => boolean) => {
      for (let i = 0; i < 60; i += 1) {
        await page.keyboard.press('Tab');
        const now = await focused();
        if (!now) continue;
        expect(now.visible, `focus ring on ${now.tag} ${now.label}`).toBe(true);
        if (match(now)) return;
      }
      throw new Error('the element was not reached with Tab');
    };
    await tabTo((f) => f.name === 'phone');
    await page.keyboard.type(f.adminPhone);
    await tabTo((f) => f.tag === 'button' && f.label === 'Recevoir un code');
    await page.keyboard.press('Enter');
    await page.getByLabel('Code reçu').waitFor();
    // The code field has the focus once the form changes.
    expect((await focused())?.name).toBe('code');
    await page.keyboard.type(f.t.outbox!.lastCode(f.adminPhone));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Tableau de bord', level: 1 }).waitFor();
    await tabTo((f) => f.tag === 'a' && f.label === 'Packs');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Packs', level: 1 }).waitFor();
    const packs = await f.t.app.inject({
      method: 'GET',
      url: '/api/admin/packs',
      headers: f.admin.headers,
    });
    const first = packs.json().data.packs.find((p: { active: boolean }) => p.active) as {
      id: number;
      name: string;
    };
    await tabTo((f) => f.tag === 'button' && f.label === 'Désactiver');
    await page.keyboard.press('Enter');
    await f.status(page, `Pack « ${first.name} » désactivé.`);
    await page.screenshot({ path: join(OUT, 'admin-keyboard.png'), fullPage: true });
    const after = await f.t.app.inject({
      method: 'GET',
      url: '/api/admin/packs',
      headers: f.admin.headers,
    });
    expect(after.json().data.packs.find((p: { id: number }) => p.id === first.id).active).toBe(false);
    expect(f.pageErrors).toEqual([]);
  }, 60_000);
});
