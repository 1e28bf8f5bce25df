// The admin console in a real browser (fixture: ./setup.ts): an admin signs in with a one-time code
// read from the test outbox, approves one withdrawal and rejects another, replies to a ticket,
// adjusts a user's credits and sees the ledger row; blocks, unblocks and asks to promote a user; creates,
// edits, deactivates and reactivates a pronostic type and a pack; resolves a flag with a note; and
// closes escalated payouts by hand (paid, failed on the provider's read shown before deciding,
// failed by override). Every
// action that changes money or access is then found in the audit screen (its row: action, target,
// the admin, the details) and in the audit API. A user without the admin role is refused; and a
// keyboard-only pass signs in and deactivates a pack with Tab and Enter, the focus visibly moving.
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pronosticTypes, users, withdrawals } from '../../src/db/schema/index.js';
import { raiseFlag } from '../../src/money/flags/raise.js';
import { giveMoney, moneyOf, withdrawn } from '../affiliation/helpers.js';
import { expectLedgerConsistent, nextPhone, signIn } from '../helpers.js';
import { type ConsoleFixture, OUT, runBrowserTests, startConsole } from './setup.js';

interface AuditEntry {
  id: number;
  admin_id: number;
  action: string;
  target_type: string;
  target_id: string | null;
  details: Record<string, unknown>;
}

describe.skipIf(!runBrowserTests)('the admin console in Chromium', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole();
    // A Vite build, a fresh database and Chromium: a loaded machine needs more than the default.
  }, 120_000);
  afterAll(() => f?.close());

  /** The browser admin's user id (the audit's actor). */
  const adminId = async () => {
    const [row] = await f.t.app.db.select({ id: users.id }).from(users).where(eq(users.phone, f.adminPhone));
    return row!.id;
  };

  /**
   * The audit entries an action left on a target, as the console shows them (the journal filtered
   * by action: the target's rows, newest first, naming the admin, the newest holding `shown`) and
   * as the audit API returns them (newest first); as many on screen as in the API.
   */
  const audited = async (
    page: Page,
    action: string,
    target: string,
    shown: string[] = [],
  ): Promise<AuditEntry[]> => {
    await page.getByRole('link', { name: 'Journal d’audit' }).click();
    await page.getByLabel(/^Action/).fill(action);
    await page.getByRole('button', { name: 'Filtrer' }).click();
    const rows = page.locator(`tr[data-audit="${action}"][data-target="${target}"]`);
    await rows.first().waitFor();
    const text = (await rows.first().textContent()) ?? '';
    expect(text).toContain(`n° ${await adminId()}`);
    for (const piece of shown) expect(text, `${action} ${target}`).toContain(piece);
    const listed = await f.t.app.inject({
      method: 'GET',
      url: `/api/admin/audit?action=${encodeURIComponent(action)}&per_page=50`,
      headers: f.admin.headers,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const entries = (listed.json().data.entries as AuditEntry[]).filter(
      (e) => `${e.target_type}:${e.target_id ?? ''}` === target,
    );
    expect(entries.length, `${action} on ${target} in the audit API`).toBeGreaterThan(0);
    expect(await rows.count()).toBe(entries.length);
    for (const entry of entries) expect(entry.admin_id).toBe(await adminId());
    return entries;
  };

  /** A fresh page signed in through the UI, on the dashboard. */
  const signedInPage = async () => {
    const page = await f.newPage();
    await f.signInThroughUi(page, f.adminPhone);
    await page.getByRole('heading', { name: 'Tableau de bord', level: 1 }).waitFor();
    return page;
  };

  it('lets an admin approve and reject withdrawals, reply to a ticket and adjust credits', async () => {
    const page = await f.newPage();
    await f.signInThroughUi(page, f.adminPhone);
    await page.getByRole('heading', { name: 'Tableau de bord', level: 1 }).waitFor();
    await expect.poll(() => page.locator('[data-cell="withdrawals-pending"]').textContent()).toBe('2');

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
    await expect
      .poll(() => page.locator('[data-field="credits"]').textContent())
      .toBe(String(operation.balance_after));
    await expectLedgerConsistent(f.t);

    // Each money action left its audit row, shown in the journal.
    const [approval] = await audited(page, 'withdrawal.approve', `withdrawal:${f.toApprove}`, [
      'Vérifié par le support',
    ]);
    expect(approval!.details).toMatchObject({ amount: 6000, user_id: f.customer.id });
    const [rejection] = await audited(page, 'withdrawal.reject', `withdrawal:${f.toReject}`, [
      'Numéro incorrect',
    ]);
    expect(rejection!.details).toMatchObject({ amount: 5000, refunded: 5000 });
    const [adjustment] = await audited(page, 'user.credits', `user:${f.customer.id}`, [
      'Geste commercial après incident',
    ]);
    expect(adjustment!.details).toMatchObject({ amount: 250, reason: 'Geste commercial après incident' });

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(f.pageErrors).toEqual([]);
  }, 60_000);

  it('blocks, unblocks and promotes a user from their page, each audited', async () => {
    const target = await signIn(f.t);
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Utilisateurs' }).click();
    await page.getByLabel('Téléphone, nom ou pseudo').fill(target.phone.slice(4));
    await page.getByRole('button', { name: 'Rechercher' }).click();
    await page.getByRole('link', { name: target.phone }).click();
    await page.getByRole('button', { name: 'Bloquer' }).click();
    await f.status(page, 'Utilisateur bloqué.');
    await page.locator('[data-field="status"]', { hasText: 'Bloqué' }).waitFor();
    // Blocked means locked out: the user's own token is refused.
    const refused = await f.t.app.inject({
      method: 'GET',
      url: '/api/user/profile',
      headers: target.headers,
    });
    expect(refused.statusCode).toBeGreaterThanOrEqual(401);
    expect(refused.statusCode).toBeLessThanOrEqual(403);
    await page.getByRole('button', { name: 'Débloquer' }).click();
    await f.status(page, 'Utilisateur débloqué.');
    // The page reloads the user after the answer: wait for it rather than read at once.
    await page.locator('[data-field="status"]', { hasText: 'Actif' }).waitFor();
    // Four eyes: the promotion is asked for here, and a second admin confirms it (approvals.test.ts).
    await page.getByRole('button', { name: 'Nommer administrateur' }).click();
    await f.status(page, 'un second administrateur doit la confirmer dans Approbations');
    const [pending] = (await f.t.app.services.approvals.list({ status: 'pending' })).approvals;
    expect(pending).toMatchObject({ action: 'user.promote', target: { type: 'user', id: target.id } });
    const confirmed = await f.t.app.inject({
      method: 'POST',
      url: `/api/admin/approvals/${pending!.id}/confirm`,
      headers: f.admin.headers,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const [row] = await f.t.app.db.select().from(users).where(eq(users.id, target.id));
    expect(row).toMatchObject({ status: 'active', role: 'admin' });

    const [block] = await audited(page, 'user.block', `user:${target.id}`, ['blocked']);
    expect(block!.details).toEqual({ before: { status: 'active' }, after: { status: 'blocked' } });
    const [unblock] = await audited(page, 'user.unblock', `user:${target.id}`);
    expect(unblock!.details).toEqual({ before: { status: 'blocked' }, after: { status: 'active' } });
    const [asked] = await audited(page, 'approval.request', `approval:${pending!.id}`, ['user.promote']);
    expect(asked!.details).toMatchObject({ action: 'user.promote', target: { type: 'user', id: target.id } });
    expect(f.pageErrors).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('creates, edits, deactivates and reactivates a pronostic type, each audited', async () => {
    // A market without a type: its seeded row removed (no pronostic of this file uses it).
    await f.t.app.db.delete(pronosticTypes).where(eq(pronosticTypes.slug, 'full-analysis'));
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Types de pronostic' }).click();
    const form = page.locator('form[aria-labelledby="new-type-title"]');
    await form.getByLabel(/Marché/).fill('full-analysis');
    await form.getByLabel('Nom', { exact: true }).fill('Analyse intégrale');
    await form.getByLabel(/Nom en anglais/).fill('Thorough analysis');
    await form.getByLabel(/Difficulté/).fill('5');
    await form.getByLabel('Description', { exact: true }).fill('Tous les marchés du match.');
    await form.getByLabel(/Description en anglais/).fill('Every market of the match.');
    await form.getByRole('button', { name: 'Créer le type' }).click();
    await f.status(page, 'Type « Analyse intégrale » créé.');
    const [created] = await f.t.app.db
      .select()
      .from(pronosticTypes)
      .where(eq(pronosticTypes.slug, 'full-analysis'));
    expect(created).toMatchObject({
      name: 'Analyse intégrale',
      nameEn: 'Thorough analysis',
      descriptionEn: 'Every market of the match.',
      difficulty: 5,
      active: true,
    });

    const card = page.getByRole('form', { name: 'Type Analyse intégrale' });
    expect(await card.getByLabel(/Nom en anglais/).inputValue()).toBe('Thorough analysis');
    await card.getByLabel('Nom', { exact: true }).fill('Analyse complète');
    await card.getByLabel(/Nom en anglais/).fill('Full analysis');
    await card.getByRole('button', { name: 'Enregistrer' }).click();
    await f.status(page, 'Type « Analyse complète » enregistré.');
    const edited = page.getByRole('form', { name: 'Type Analyse complète' });
    await edited.getByRole('button', { name: 'Désactiver' }).click();
    await f.status(page, 'Type « Analyse complète » désactivé.');
    await edited.getByText('Inactif', { exact: true }).waitFor();
    await edited.getByRole('button', { name: 'Activer' }).click();
    await f.status(page, 'Type « Analyse complète » activé.');
    const [after] = await f.t.app.db.select().from(pronosticTypes).where(eq(pronosticTypes.id, created!.id));
    expect(after).toMatchObject({ name: 'Analyse complète', nameEn: 'Full analysis', active: true });

    const target = `pronostic_type:${created!.id}`;
    const [creation] = await audited(page, 'pronostic_type.create', target, ['Analyse intégrale']);
    expect(creation!.details).toMatchObject({
      slug: 'full-analysis',
      name: 'Analyse intégrale',
      difficulty: 5,
    });
    const updates = await audited(page, 'pronostic_type.update', target, ['active']);
    expect(updates.map((entry) => entry.details.after)).toEqual([
      { active: true },
      { active: false },
      { name: 'Analyse complète', nameEn: 'Full analysis' },
    ]);
    expect(f.pageErrors).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('creates, edits, deactivates and reactivates a pack, each audited', async () => {
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Packs' }).click();
    const form = page.locator('form[aria-labelledby="new-pack-title"]');
    await form.getByLabel('Nom').fill('Pack Derby');
    await form.getByLabel('Crédits').fill('15');
    await form.getByLabel('Prix (XAF)').fill('1500');
    await form.getByRole('button', { name: 'Créer le pack' }).click();
    await f.status(page, 'Pack « Pack Derby » créé.');
    const card = page.getByRole('form', { name: 'Pack Pack Derby' });
    await card.getByLabel('Prix (XAF)').fill('1800');
    await card.getByRole('button', { name: 'Enregistrer' }).click();
    await f.status(page, 'Pack « Pack Derby » enregistré.');
    await card.getByText(/15 crédits pour 1\s800 XAF/).waitFor();
    await card.getByRole('button', { name: 'Désactiver' }).click();
    await f.status(page, 'Pack « Pack Derby » désactivé.');
    await card.getByRole('button', { name: 'Activer' }).click();
    await f.status(page, 'Pack « Pack Derby » activé.');
    const packs = await f.t.app.inject({
      method: 'GET',
      url: '/api/admin/packs?per_page=50',
      headers: f.admin.headers,
    });
    const pack = packs.json().data.packs.find((p: { name: string }) => p.name === 'Pack Derby');
    expect(pack).toMatchObject({ credits: 15, price: 1800, active: true });

    const target = `pack:${pack.id}`;
    const [creation] = await audited(page, 'pack.create', target, ['Pack Derby']);
    expect(creation!.details).toEqual({ name: 'Pack Derby', credits: 15, price: 1500 });
    expect((await audited(page, 'pack.update', target, ['1800'])).length).toBe(1);
    expect((await audited(page, 'pack.deactivate', target)).length).toBe(1);
    expect((await audited(page, 'pack.activate', target)).length).toBe(1);
    expect(f.pageErrors).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('resolves a flag with a note (audited); open flags come first', async () => {
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Signalements' }).click();
    const card = page.locator(`[data-flag="${f.flagId}"]`);
    await card.getByText('Ouvert', { exact: true }).waitFor();
    await card
      .getByLabel(/Note de résolution/)
      .fill('Transfert vérifié chez l’opérateur : remboursé à tort, réglé.');
    await card.getByRole('button', { name: 'Résoudre' }).click();
    await f.status(page, `Signalement n° ${f.flagId} résolu.`);
    await page
      .locator(`[data-flag="${f.flagId}"] [data-field="resolution"]`, { hasText: 'remboursé à tort' })
      .waitFor();
    // A new flag, raised while the screen is open, shows without a reload, ahead of the resolved one.
    await f.t.app.db.transaction((tx) =>
      raiseFlag(
        tx,
        { kind: 'stuck_pending', targetType: 'withdrawal', targetId: f.toApprove, details: { hours: 25 } },
        undefined,
        f.t.app.services.events,
      ),
    );
    const newer = page.locator('[data-flag]').first();
    await newer.getByText('Ouvert', { exact: true }).waitFor();
    const order = await page
      .locator('[data-flag]')
      .evaluateAll((cards) => cards.map((c) => c.getAttribute('data-flag')));
    expect(order.indexOf(String(f.flagId))).toBeGreaterThan(0);

    const [resolution] = await audited(page, 'flag.resolve', `flag:${f.flagId}`, ['remboursé à tort']);
    expect(resolution!.details).toMatchObject({
      message: 'Transfert vérifié chez l’opérateur : remboursé à tort, réglé.',
    });
    expect(f.pageErrors).toEqual([]);
    await page.context().close();
  }, 60_000);

  it('closes escalated payouts by hand: paid, failed on the provider’s read, failed by override; audited with the read', async () => {
    /** A withdrawal approved through the API whose payout is still sent after a minute: escalated. */
    const escalated = async (phone?: string) => {
      const user = await signIn(f.t);
      await giveMoney(f.t, user.id, 5000);
      const id = await withdrawn(f.t, user, { amount: 5000, ...(phone ? { phone } : {}) });
      const approved = await f.t.app.inject({
        method: 'POST',
        url: `/api/admin/withdrawals/${id}/approve`,
        headers: f.admin.headers,
        payload: {},
      });
      expect(approved.statusCode, approved.body).toBe(200);
      return { user, id };
    };
    const paid = await escalated();
    // A number ending in 0000: the sandbox fails the transfer once its hour has passed.
    const failed = await escalated('+237670000000');
    const overridden = await escalated();
    f.t.clock.advance(61_000);
    for (const { id } of [paid, failed, overridden]) {
      expect(await f.t.app.services.payouts.onTransferEvent(`wd-${id}`)).toBe('escalated');
    }
    // An hour on, the provider has its final word; the tokens of before have gone idle.
    f.t.clock.advance(3_600_000);
    f.admin = await signIn(f.t, { role: 'admin' });
    const page = await signedInPage();
    await page.getByRole('link', { name: 'Retraits' }).click();

    const resolveForm = (id: number) =>
      page.getByRole('form', { name: `Régler le paiement escaladé n° ${id}` });
    const paidForm = resolveForm(paid.id);
    await paidForm.getByLabel('Payé', { exact: true }).check();
    await paidForm.getByLabel(/^Message/).fill('Confirmé par l’opérateur au téléphone');
    await paidForm.getByRole('button', { name: 'Régler le paiement' }).click();
    await f.status(page, `Retrait n° ${paid.id} marqué payé.`);

    // Before deciding, the admin reads each transfer at the provider: its word is shown.
    const failedForm = resolveForm(failed.id);
    await failedForm.getByRole('button', { name: 'Lire le transfert chez l’opérateur' }).click();
    await failedForm
      .locator('[data-field="provider-read"]', { hasText: 'L’opérateur répond « failed »' })
      .waitFor();
    expect(await failedForm.locator('[data-field="provider-read"]').textContent()).toContain(
      'échec définitif',
    );
    await failedForm.getByLabel(/Échoué/).check();
    await failedForm.getByLabel(/^Message/).fill('L’opérateur a refusé le transfert');
    await failedForm.getByRole('button', { name: 'Régler le paiement' }).click();
    await f.status(page, `Retrait n° ${failed.id} marqué échoué et remboursé.`);

    // The provider calls this one complete: a failure by hand is refused until override is ticked.
    const overrideForm = resolveForm(overridden.id);
    await overrideForm.getByRole('button', { name: 'Lire le transfert chez l’opérateur' }).click();
    await overrideForm
      .locator('[data-field="provider-read"]', { hasText: 'L’opérateur répond « complete »' })
      .waitFor();
    expect(await overrideForm.locator('[data-field="provider-read"]').textContent()).toContain(
      'pas un échec définitif',
    );
    await overrideForm.getByLabel(/Échoué/).check();
    await overrideForm.getByLabel(/^Message/).fill('Jamais reçu, vérifié avec le client');
    await overrideForm.getByRole('button', { name: 'Régler le paiement' }).click();
    await f.status(page, 'Le prestataire ne confirme pas l’échec');
    expect(await moneyOf(f.t, overridden.user.id)).toBe(0);
    await overrideForm.getByLabel(/Clôturer en échec/).check();
    await overrideForm.getByRole('button', { name: 'Régler le paiement' }).click();
    await f.status(page, `Retrait n° ${overridden.id} marqué échoué et remboursé.`);

    const rows = async (id: number) =>
      (await f.t.app.db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0];
    expect(await rows(paid.id)).toMatchObject({ status: 'success' });
    expect(await rows(failed.id)).toMatchObject({ status: 'cancelled' });
    expect(await rows(overridden.id)).toMatchObject({ status: 'cancelled' });
    expect(await moneyOf(f.t, paid.user.id)).toBe(0);
    expect(await moneyOf(f.t, failed.user.id)).toBe(5000);
    expect(await moneyOf(f.t, overridden.user.id)).toBe(5000);
    await expectLedgerConsistent(f.t);

    const [paidEntry] = await audited(page, 'withdrawal.resolve', `withdrawal:${paid.id}`, [
      '"outcome":"paid"',
    ]);
    expect(paidEntry!.details).toMatchObject({ outcome: 'paid', refunded: 0, provider_read: null });
    // The provider's read, made when the admin clicked, is on the audit row and on screen.
    const [failedEntry] = await audited(page, 'withdrawal.resolve', `withdrawal:${failed.id}`, [
      '"provider_read":{"status":"failed","final_failure":true}',
    ]);
    expect(failedEntry!.details).toMatchObject({
      outcome: 'failed',
      override: false,
      refunded: 5000,
      provider_read: { status: 'failed', final_failure: true },
    });
    const [overrideEntry] = await audited(page, 'withdrawal.resolve', `withdrawal:${overridden.id}`, [
      '"override":true',
    ]);
    expect(overrideEntry!.details).toMatchObject({ outcome: 'failed', override: true, refunded: 5000 });
    // The refused failure's 422 is the answer the admin was shown, not a fault of the page.
    const refusedLoads = f.pageErrors.filter((error) => /status of 422/.test(error));
    expect(refusedLoads).toHaveLength(1);
    f.pageErrors.splice(
      0,
      f.pageErrors.length,
      ...f.pageErrors.filter((error) => !/status of 422/.test(error)),
    );
    expect(f.pageErrors).toEqual([]);
    await page.context().close();
  }, 90_000);

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
      /** In the tab order: not the content the app itself focuses after a move (`main`, tabindex -1). */
      tabbable: boolean;
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
          tabbable: el.tabIndex >= 0,
        };
      })()`) as Promise<Focused | null>;
    /** Tab until `match` holds, each focused element showing its focus ring. */
    const tabTo = async (match: (f: Focused) => boolean) => {
      for (let i = 0; i < 60; i += 1) {
        await page.keyboard.press('Tab');
        const now = await focused();
        // The move's own focus on the content may land after a Tab pressed while the screen loads.
        if (!now?.tabbable) continue;
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
