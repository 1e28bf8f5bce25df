// The admin console in a real browser: Debian's Chromium (playwright-core) against the service
// listening on port 0 on a fresh database, serving a build of console/ made by Vite for this run.
// An admin signs in with a one-time code read from the test outbox, approves one withdrawal and
// rejects another, replies to a ticket, adjusts a user's credits and sees the ledger row; a user
// without the admin role is refused. Every screen is screenshot into .ci/out/admin-<screen>.png and
// checked by axe-core (no serious or critical violation), and a keyboard-only pass signs in and
// deactivates a pack with Tab and Enter, the focus visibly moving. Without Chromium the file is
// skipped locally and fails in CI (CI=true), as test/track-record/page.test.ts.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '../../src/db/schema/index.js';
import { giveMoney, withdrawn } from '../affiliation/helpers.js';
import {
  createTestApp,
  expectLedgerConsistent,
  nextPhone,
  type SignedIn,
  signIn,
  type TestApp,
} from '../helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
if (!available && !inCi) {
  console.warn(`admin console test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}
const OUT = join(process.cwd(), '.ci', 'out');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe.skipIf(!available && !inCi)('the admin console in Chromium', () => {
  let t: TestApp;
  let browser: Browser | undefined;
  let base: string;
  let buildDir: string;
  let adminPhone: string;
  let admin: SignedIn;
  let customer: SignedIn;
  let other: SignedIn;
  let toApprove: number;
  let toReject: number;
  let ticketId: number;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!available) throw new Error(`CI: Chromium is required at ${CHROMIUM} for the console test`);
    buildDir = await mkdtemp(join(tmpdir(), 'admin-console-'));
    await build({
      configFile: join(process.cwd(), 'console', 'vite.config.ts'),
      build: { outDir: buildDir, emptyOutDir: true },
      logLevel: 'warn',
    });
    // The per-network sign-in caps are lifted: every browser sign-in comes from 127.0.0.1.
    t = await createTestApp({ config: { consoleDir: buildDir, rateLimit: false } });
    // The admin's account exists with its role (as `user:role` gives it); the browser signs in.
    adminPhone = nextPhone();
    const { user } = await t.app.services.users.findOrCreate(adminPhone, 'CM');
    await t.app.services.users.changeRole(user.id, 'admin');
    admin = await signIn(t, { role: 'admin' });
    customer = await signIn(t);
    other = await signIn(t);
    await giveMoney(t, customer.id, 9000);
    await giveMoney(t, other.id, 7000);
    toApprove = await withdrawn(t, customer, { amount: 6000 });
    toReject = await withdrawn(t, other, { amount: 5000 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const form = new FormData();
    form.set('subject', 'Retrait non reçu');
    form.set('message', 'Bonjour, mon retrait n’est pas arrivé.');
    const created = await fetch(`${base}/api/user/support/ticket/create`, {
      method: 'POST',
      body: form,
      headers: customer.headers,
    });
    expect(created.status).toBe(201);
    ticketId = ((await created.json()) as { data: { ticket: { id: number } } }).data.ticket.id;
    await mkdir(OUT, { recursive: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (buildDir) await rm(buildDir, { recursive: true, force: true });
  });

  async function newPage(context?: BrowserContext): Promise<Page> {
    const page = await (
      context ?? (await browser!.newContext({ viewport: { width: 1280, height: 900 } }))
    ).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      // A refused call (403 for the non-admin, 401 after logout) is logged by Chromium as a failed load.
      if (message.type() === 'error' && !/status of 40[13]/.test(message.text()))
        pageErrors.push(message.text());
    });
    return page;
  }

  /** Phone → code (from the test outbox) → signed in, with the mouse. */
  async function signInThroughUi(page: Page, phone: string): Promise<void> {
    const response = await page.goto(`${base}/admin`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.getByLabel('Numéro de téléphone').fill(phone);
    await page.getByRole('button', { name: 'Recevoir un code' }).click();
    await page.getByLabel('Code reçu').fill(t.outbox!.lastCode(phone));
    await page.getByRole('button', { name: 'Se connecter' }).click();
  }

  async function status(page: Page, text: string): Promise<void> {
    await page.locator('.status-bar[role="status"]', { hasText: text }).waitFor({ timeout: 10_000 });
  }

  it('lets an admin approve and reject withdrawals, reply to a ticket and adjust credits', async () => {
    const page = await newPage();
    await signInThroughUi(page, adminPhone);
    await page.getByRole('heading', { name: 'Tableau de bord', level: 1 }).waitFor();
    await expect(page.locator('[data-cell="withdrawals-pending"]').textContent()).resolves.toBe('2');

    await page.getByRole('link', { name: 'Retraits' }).click();
    const approveCard = page.locator(`[data-withdrawal="${toApprove}"]`);
    await approveCard.getByLabel(/Message à l’utilisateur/).fill('Vérifié par le support');
    await approveCard.getByRole('button', { name: 'Approuver' }).click();
    await status(page, `Retrait n° ${toApprove} approuvé.`);
    const rejectCard = page.locator(`[data-withdrawal="${toReject}"]`);
    await rejectCard.getByLabel(/Message à l’utilisateur/).fill('Numéro incorrect');
    await rejectCard.getByRole('button', { name: 'Refuser' }).click();
    await status(page, `Retrait n° ${toReject} refusé et remboursé.`);
    const rows = await t.app.db.select().from(withdrawals).where(eq(withdrawals.id, toApprove));
    expect(rows[0]).toMatchObject({ decision: 'approved', decisionMessage: 'Vérifié par le support' });
    const rejected = await t.app.db.select().from(withdrawals).where(eq(withdrawals.id, toReject));
    expect(rejected[0]).toMatchObject({ status: 'cancelled', decision: 'rejected' });

    await page.getByRole('link', { name: 'Support' }).click();
    await page.getByRole('link', { name: 'Retrait non reçu' }).click();
    await page.getByLabel('Votre réponse').fill('Votre retrait a été envoyé ce matin.');
    await page.getByRole('button', { name: 'Répondre' }).click();
    await status(page, 'Réponse envoyée.');
    await page
      .locator('.thread .from-support', { hasText: 'Votre retrait a été envoyé ce matin.' })
      .waitFor();
    const ticket = await t.app.inject({
      method: 'GET',
      url: `/api/admin/tickets/${ticketId}`,
      headers: admin.headers,
    });
    expect(ticket.json().data.ticket).toMatchObject({
      status: 'answered',
      replies: [{ author: 'support', message: 'Votre retrait a été envoyé ce matin.' }],
    });

    await page.getByRole('link', { name: 'Utilisateurs' }).click();
    await page.getByLabel('Téléphone, nom ou pseudo').fill(customer.phone.slice(4));
    await page.getByRole('button', { name: 'Rechercher' }).click();
    await page.getByRole('link', { name: customer.phone }).click();
    await page.getByRole('heading', { name: `Utilisateur n° ${customer.id} · ${customer.phone}` }).waitFor();
    await page.getByLabel('Montant (négatif pour retirer)').fill('250');
    await page.getByLabel('Motif').fill('Geste commercial après incident');
    await page.getByRole('button', { name: 'Enregistrer l’ajustement' }).click();
    await status(page, '+250 crédits enregistrés.');
    const ledgerRow = page.locator('[data-table="ledger"] tbody tr', {
      hasText: 'Geste commercial après incident',
    });
    await ledgerRow.waitFor();
    await expect(ledgerRow.textContent()).resolves.toContain('+250 crédits');
    const operations = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users/${customer.id}/operations`,
      headers: admin.headers,
    });
    const operation = operations.json().data.operations[0];
    expect(operation).toMatchObject({ type: 'admin_adjustment', currency: 'credits', amount: 250 });
    await expect(page.locator('[data-field="credits"]').textContent()).resolves.toBe(
      String(operation.balance_after),
    );
    await expectLedgerConsistent(t);

    await page.getByRole('button', { name: 'Se déconnecter' }).click();
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('refuses a user without the admin role, with no admin data on screen', async () => {
    const page = await newPage();
    const adminCalls: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.startsWith('/api/admin/')) adminCalls.push(response.status());
    });
    await signInThroughUi(page, nextPhone());
    await page.locator('[role="status"]', { hasText: 'Accès réservé aux administrateurs' }).waitFor();
    expect(await page.getByRole('navigation', { name: 'Écrans' }).count()).toBe(0);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(adminCalls).toEqual([403]);
    // A deep link does not get past the sign-in either.
    await page.goto(`${base}/admin/utilisateurs`);
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    await page.screenshot({ path: join(OUT, 'admin-refused.png'), fullPage: true });
  }, 30_000);

  it('has no serious or critical axe violation on any screen (screenshots in .ci/out)', async () => {
    // axe-core is injected as an inline script: only this context bypasses the service's CSP.
    const context = await browser!.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await newPage(context);
    const check = async (screen: string, ready: () => Promise<unknown>) => {
      await ready();
      await page.screenshot({ path: join(OUT, `admin-${screen}.png`), fullPage: true });
      await page.addScriptTag({ content: AXE });
      const violations = (await page.evaluate(
        'axe.run(document).then((r) => r.violations)',
      )) as AxeViolation[];
      const bad = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${screen}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        );
      expect(bad).toEqual([]);
    };
    await page.goto(`${base}/admin`);
    await check('signin', () => page.getByLabel('Numéro de téléphone').waitFor());
    // The admin's token, as the sign-in keeps it; each screen is then opened by its own deep link.
    await page.evaluate(`sessionStorage.setItem('pronostics.admin.token', ${JSON.stringify(admin.token)})`);
    const screens: [string, string, string][] = [
      ['dashboard', '/admin', 'Tableau de bord'],
      ['retraits', '/admin/retraits', 'Retraits'],
      ['utilisateurs', '/admin/utilisateurs', 'Utilisateurs'],
      [
        'utilisateur',
        `/admin/utilisateurs/${customer.id}`,
        `Utilisateur n° ${customer.id} · ${customer.phone}`,
      ],
      ['types', '/admin/types', 'Types de pronostic'],
      ['packs', '/admin/packs', 'Packs'],
      ['support', '/admin/support', 'Support'],
      ['ticket', `/admin/support/${ticketId}`, 'Demande n°'],
      ['journal', '/admin/journal', 'Journal d’audit'],
    ];
    for (const [screen, url, heading] of screens) {
      await page.goto(`${base}${url}`);
      await check(screen, async () => {
        await page.getByRole('heading', { name: heading, level: 1 }).first().waitFor();
        await page
          .locator('[aria-busy="true"]')
          .first()
          .waitFor({ state: 'detached' })
          .catch(() => undefined);
        await page.waitForFunction('document.querySelectorAll(\'[aria-busy="true"]\').length === 0');
      });
    }
    // The narrow layout (a phone) is screenshot too.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/admin/retraits`);
    await check('retraits-mobile', () => page.getByRole('heading', { name: 'Retraits', level: 1 }).waitFor());
    await context.close();
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('works with the keyboard alone: sign in, then deactivate a pack, the focus visible at each step', async () => {
    const page = await newPage();
    await page.goto(`${base}/admin`);
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
    await page.keyboard.type(adminPhone);
    await tabTo((f) => f.tag === 'button' && f.label === 'Recevoir un code');
    await page.keyboard.press('Enter');
    await page.getByLabel('Code reçu').waitFor();
    // The code field has the focus once the form changes.
    expect((await focused())?.name).toBe('code');
    await page.keyboard.type(t.outbox!.lastCode(adminPhone));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Tableau de bord', level: 1 }).waitFor();
    await tabTo((f) => f.tag === 'a' && f.label === 'Packs');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Packs', level: 1 }).waitFor();
    const packs = await t.app.inject({ method: 'GET', url: '/api/admin/packs', headers: admin.headers });
    const first = packs.json().data.packs.find((p: { active: boolean }) => p.active) as {
      id: number;
      name: string;
    };
    await tabTo((f) => f.tag === 'button' && f.label === 'Désactiver');
    await page.keyboard.press('Enter');
    await status(page, `Pack « ${first.name} » désactivé.`);
    await page.screenshot({ path: join(OUT, 'admin-keyboard.png'), fullPage: true });
    const after = await t.app.inject({ method: 'GET', url: '/api/admin/packs', headers: admin.headers });
    expect(after.json().data.packs.find((p: { id: number }) => p.id === first.id).active).toBe(false);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});
