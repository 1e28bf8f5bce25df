// The public page in a real browser: Debian's Chromium (playwright-core) against the service
// listening on port 0, once on a fresh install (empty states) and once with a seeded, settled
// database (figures per type and league, our calibration beside the bookmakers'). The page must
// render the seeded figures (checked against the seed, not against itself) under the service's
// CSP; at 390 and 1280 px nothing may overflow (the page, a box, a chart's label) nor a chart's
// labels overlap, axe finds no serious violation, and the screenshots are kept in .ci/out/. The
// browser asks for French (`locale: 'fr-FR'`); the English page is test/browser/languages.test.ts's.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureOdds } from '../../src/db/schema/fixtures.js';
import { ManualClock } from '../../src/lib/clock.js';
import {
  FIND_OVERFLOW,
  FIND_OVERLAPPING_LABELS,
  findSmallLabels,
  launchChromium,
  OUT,
  runBrowserTests,
  seriousAxeViolations,
  WIDTHS,
  warnWithoutChromium,
} from '../browser/page-checks.js';
import { seedFixture } from '../fixtures/seed.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { RECORD_CASES, RECORD_NOW, seedMarket, seedRecord, seedUser } from './seed.js';

warnWithoutChromium('track-record page test');

interface ApiRecord {
  overall: { all_time: { one_x_two: { rps: number; baseline_brier: number } } };
  calibration: unknown[];
  monthly: unknown[];
  by_type: Array<{ type: string }>;
  by_league: Array<{ league: { code: string } | null }>;
  market_calibration: { matches: number; bins: Array<{ from: number; count: number; hit_rate: number }> };
}

const pct = (value: number) => `${(value * 100).toFixed(1).replace('.', ',')} %`;
/** Priced matches the filled state seeds (each with one settled analysis). */
const PRICED = 75;

async function listening(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

describe.skipIf(!runBrowserTests)('the /track-record page in Chromium', () => {
  let empty: TestApp;
  let filled: TestApp;
  let browser: Browser | undefined;
  let emptyBase: string;
  let base: string;
  let api: ApiRecord;

  beforeAll(async () => {
    browser = await launchChromium();
    empty = await createTestApp({ clock: new ManualClock(RECORD_NOW) });
    emptyBase = await listening(empty);
    filled = await createTestApp({ clock: new ManualClock(RECORD_NOW) });
    const owners: [number, number] = [await seedUser(filled), await seedUser(filled)];
    await seedRecord(filled, owners);
    await seedMarket(filled, owners[1], PRICED);
    // The money section (issue 53): every settled 1X2 or full analysis given one stored odds row.
    const fixture = await seedFixture(filled, {
      home: 'Odds Home',
      away: 'Odds Away',
      kickoffAt: RECORD_NOW,
    });
    const [odds] = await filled.database.db
      .insert(fixtureOdds)
      .values({
        fixtureId: fixture,
        collectedAt: RECORD_NOW,
        averageHome: 1.9,
        averageDraw: 3.4,
        averageAway: 4.2,
      })
      .returning({ id: fixtureOdds.id });
    await filled.app.db.execute(
      sql`UPDATE pronostics SET fixture_odds_id = ${odds!.id} WHERE outcome IN ('won', 'lost')
          AND type_id IN (SELECT id FROM pronostic_types WHERE slug IN ('1x2', 'full-analysis'))`,
    );
    base = await listening(filled);
    api = ((await (await fetch(`${base}/api/track-record`)).json()) as { data: { track_record: ApiRecord } })
      .data.track_record;
    await mkdir(OUT, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await empty?.close();
    await filled?.close();
  });

  /** Opens the page and waits for its figures; collects the page's errors. */
  async function open(page: Page, at: string): Promise<string[]> {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const response = await page.goto(`${at}/track-record`);
    expect(response?.status()).toBe(200);
    await page.waitForSelector('#status[data-ready="true"]', { timeout: 15_000 });
    return errors;
  }

  it('renders the seeded figures per type and league, and both calibrations, under the CSP', async () => {
    const page = await browser!.newPage({ locale: 'fr-FR', viewport: { width: 1280, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const response = await page.goto(`${base}/track-record`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForSelector('#status[data-ready="true"]', { timeout: 15_000 });

    const judged = RECORD_CASES.filter((c) => c.outcome !== 'void');
    const _won = judged.filter((c) => c.outcome === 'won').length;
    const cell = (name: string) => page.textContent(`[data-cell="${name}"]`);
    // Every seeded case and every priced match's analysis (each a won or lost 1X2 at 60 %).
    expect(await cell('overall:all_time:settled')).toBe(String(RECORD_CASES.length + PRICED));
    expect(await cell('overall:all_time:void')).toBe('1');
    const oneXTwo = RECORD_CASES.filter((c) => c.slug === '1x2' && c.outcome !== 'void');
    expect(await cell('type-1x2:all_time:settled')).toBe(String(oneXTwo.length + 1 + PRICED));
    // The per-type and per-league tables of the seeded record, the Serie A's of the priced season.
    expect(await cell('type-btts:all_time:won')).toBe('1');
    expect(await cell('type-btts:all_time:lost')).toBe('1');
    expect(await cell('type-exact-score:all_time:hit_rate')).toBe(pct(0));
    expect(await cell('type-over-under-2-5:all_time:hit_rate')).toBe(pct(1));
    const e0 = RECORD_CASES.filter((c) => c.match !== null && c.match <= 'm5');
    expect(await cell('league-E0:all_time:settled')).toBe(String(e0.length));
    expect(await cell('league-SP1:all_time:won')).toBe(
      String(
        RECORD_CASES.filter((c) => (c.match === 'm6' || c.match === 'm7') && c.outcome === 'won').length,
      ),
    );
    expect(await cell('league-I1:all_time:settled')).toBe(String(PRICED));
    expect(await page.locator('#by-type h3').count()).toBe(api.by_type.length);
    expect(await page.locator('#by-league h3').count()).toBe(api.by_league.length);
    expect(api.by_type.length).toBe(6);
    expect(await page.locator('#by-type .empty, #by-league .empty').count()).toBe(0);
    // The scores are the API's own (their values are checked in endpoints.test.ts), shown in French.
    expect(await cell('overall:all_time:rps')).toBe(
      api.overall.all_time.one_x_two.rps.toFixed(4).replace('.', ','),
    );
    expect(await page.locator('#calibration svg circle[data-bin]').count()).toBe(api.calibration.length);
    expect(await page.locator('#monthly svg rect[data-month]').count()).toBe(api.monthly.length);
    // The bookmakers: every priced match in bins of 30 or more, drawn and tabled, no per-match odds.
    expect(api.market_calibration.matches).toBe(PRICED);
    expect(api.market_calibration.bins.length).toBeGreaterThanOrEqual(2);
    expect(api.market_calibration.bins.every((b) => b.count >= 30)).toBe(true);
    expect(await page.locator('#calibration svg rect[data-market-bin]').count()).toBe(
      api.market_calibration.bins.length,
    );
    for (const bin of api.market_calibration.bins) {
      expect(await cell(`market:${bin.from}:count`)).toBe(String(bin.count));
      expect(await cell(`market:${bin.from}:hit_rate`)).toBe(pct(bin.hit_rate));
    }
    expect(await page.locator('#calibration-notes .empty').count()).toBe(0);
    // How we settle, as the settlement does it.
    const settlement = await page.textContent('#settlement');
    expect(settlement).toContain('football-data.co.uk');
    expect(settlement).toContain('7 jours');
    expect(settlement).toContain('toutes les 10 minutes');
    expect(errors).toEqual([]);
    await page.close();
  }, 60_000);

  it('says on a fresh install what will appear under each heading, and when', async () => {
    const page = await browser!.newPage({ locale: 'fr-FR', viewport: { width: 1280, height: 1400 } });
    expect(await open(page, emptyBase)).toEqual([]);
    const text = async (selector: string) => (await page.textContent(selector))?.replace(/\s+/g, ' ');
    expect(await text('#overall .empty')).toContain('Aucune analyse n’est encore réglée');
    expect(await text('#by-type .empty')).toMatch(/dès sa première analyse réglée/);
    expect(await text('#by-league .empty')).toMatch(/dès qu’une analyse d’un de ses matchs sera réglée/);
    expect(await text('[data-empty="calibration"]')).toMatch(/premières analyses gagnées ou perdues/);
    expect(await text('[data-empty="market"]')).toContain('au moins 30 matchs réglés');
    expect(await text('#monthly .empty')).toMatch(/dès sa première analyse réglée/);
    expect(await page.locator('#by-type table, #by-league table, #market-table table').count()).toBe(0);
    await page.close();
  }, 60_000);

  it('holds at 390 and 1280 px, empty and filled: no overflow, chart labels readable and apart, no axe violation', async () => {
    // axe-core is injected as an inline script: only this context bypasses the service's CSP.
    const context = await browser!.newContext({ bypassCSP: true, locale: 'fr-FR' });
    const problems: string[] = [];
    for (const [state, at] of [
      ['empty', emptyBase],
      ['filled', base],
    ] as const) {
      for (const width of WIDTHS) {
        const page = await context.newPage();
        await page.setViewportSize({ width, height: 900 });
        const errors = await open(page, at);
        const name = `track-record${state === 'empty' ? '-empty' : ''}-${width}`;
        await page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });
        const overflow = (await page.evaluate(FIND_OVERFLOW)) as string[];
        const overlaps = (await page.evaluate(FIND_OVERLAPPING_LABELS)) as string[];
        const small = (await page.evaluate(findSmallLabels(10))) as string[];
        const axe = await seriousAxeViolations(page);
        if (state === 'filled')
          expect(await page.locator('#returns svg [data-returns]').count()).toBeGreaterThan(0);
        problems.push(...[...errors, ...overflow, ...overlaps, ...small, ...axe].map((p) => `${name}: ${p}`));
        expect(existsSync(join(OUT, `${name}.png`))).toBe(true);
        await page.close();
      }
    }
    await context.close();
    expect(problems).toEqual([]);
  }, 120_000);
});
