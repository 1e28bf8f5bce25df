// Live updates in the console (fixture: ./setup.ts): with an admin's screen open, a withdrawal
// requested, a ticket opened and a flag raised through the service appear without a reload (the
// page's own marker survives), on the withdrawals, support, flags screens and the dashboard's
// counters. The stream is read with fetch (the bearer token in Authorization); when the service
// ends it, the console comes back on its own with Last-Event-ID and gets what it missed.
import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { raiseFlag } from '../../src/money/flags/raise.js';
import { giveMoney, withdrawn } from '../affiliation/helpers.js';
import { signIn } from '../helpers.js';
import { type ConsoleFixture, runBrowserTests, startConsole } from './setup.js';

describe.skipIf(!runBrowserTests)('live updates in the admin console', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole();
  }, 120_000);
  afterAll(() => f?.close());

  /** Marks the loaded document: still there later means nothing reloaded the page. */
  const mark = (page: Page) => page.evaluate('window.__noReload = true');
  const notReloaded = async (page: Page) => expect(await page.evaluate('window.__noReload')).toBe(true);
  const live = (page: Page) => page.locator('[data-live="live"]').waitFor();

  const newWithdrawal = async () => {
    const user = await signIn(f.t);
    await giveMoney(f.t, user.id, 5000);
    return withdrawn(f.t, user, { amount: 5000 });
  };

  it('shows new withdrawals, tickets and flags, and moves the dashboard’s counters, without a reload', async () => {
    const page = await f.newPage();
    const streams: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/admin/events') streams.push(request);
    });
    await f.signInThroughUi(page, f.adminPhone);
    await page.getByRole('heading', { name: 'Tableau de bord', level: 1 }).waitFor();
    await live(page);
    await mark(page);
    // The stream carries the admin's token in Authorization (EventSource could not).
    expect(streams[0]?.headers().authorization).toMatch(/^Bearer /);
    const counter = (cell: string) => page.locator(`[data-cell="${cell}"]`).textContent();
    expect(await counter('withdrawals-pending')).toBe('2');
    expect(await counter('flags-open')).toBe('1');

    await newWithdrawal();
    await page.locator('[data-cell="withdrawals-pending"]', { hasText: '3' }).waitFor();
    await f.t.app.db.transaction((tx) =>
      raiseFlag(
        tx,
        { kind: 'stuck_pending', targetType: 'withdrawal', targetId: f.toApprove, details: { hours: 30 } },
        undefined,
        f.t.app.services.events,
      ),
    );
    await page.locator('[data-cell="flags-open"]', { hasText: '2' }).waitFor();

    await page.getByRole('link', { name: 'Retraits' }).click();
    await page.locator('[data-withdrawal]').first().waitFor();
    const requested = await newWithdrawal();
    await page.locator(`[data-withdrawal="${requested}"]`).waitFor();
    await page.locator('.news-bar', { hasText: `Nouvelle demande de retrait n° ${requested}` }).waitFor();

    await page.getByRole('link', { name: 'Support' }).click();
    await page.getByRole('link', { name: 'Retrait non reçu' }).waitFor();
    const form = new FormData();
    form.set('subject', 'Crédits non reçus');
    form.set('message', 'J’ai payé un pack ce matin.');
    const created = await fetch(`${f.base}/api/user/support/ticket/create`, {
      method: 'POST',
      body: form,
      headers: f.other.headers,
    });
    expect(created.status).toBe(201);
    await page.getByRole('link', { name: 'Crédits non reçus' }).waitFor();

    await page.getByRole('link', { name: 'Signalements' }).click();
    await page.locator(`[data-flag="${f.flagId}"]`).waitFor();
    await f.t.app.db.transaction((tx) =>
      raiseFlag(
        tx,
        { kind: 'amount_mismatch', targetType: 'withdrawal', targetId: requested, details: { amount: 4000 } },
        undefined,
        f.t.app.services.events,
      ),
    );
    await page.locator('[data-flag]', { hasText: 'Montant différent' }).waitFor();
    await notReloaded(page);
    // One stream all along: the screens share it.
    expect(streams).toHaveLength(1);
    expect(f.pageErrors).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('comes back by itself after the service ends the stream, with Last-Event-ID, and gets what it missed', async () => {
    const page = await f.newPage();
    const streams: Request[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/admin/events') streams.push(request);
    });
    await f.signInThroughUi(page, f.adminPhone);
    await page.getByRole('heading', { name: 'Tableau de bord', level: 1 }).waitFor();
    await page.getByRole('link', { name: 'Retraits' }).click();
    await live(page);
    await mark(page);
    const before = await f.t.app.inject({
      method: 'GET',
      url: '/api/admin/events/history?per_page=1',
      headers: f.admin.headers,
    });
    const lastSeq = before.json().data.meta.last_seq as number;
    // The first connection starts after the log's last event: nothing old is replayed.
    expect(streams[0]?.headers()['last-event-id']).toBe(String(lastSeq));

    // The service ends every stream (a restart would), and a request is made while none is open.
    await f.t.app.services.eventStreams.closeAll();
    const missed = await newWithdrawal();
    await page.locator(`[data-withdrawal="${missed}"]`).waitFor({ timeout: 15_000 });
    await live(page);
    expect(streams.length).toBeGreaterThanOrEqual(2);
    expect(streams.at(-1)?.headers()['last-event-id']).toBe(String(lastSeq));
    await notReloaded(page);
    expect(f.pageErrors).toEqual([]);
    await page.context().close();
  }, 60_000);
});
