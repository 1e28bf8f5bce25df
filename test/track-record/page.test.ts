// The public page in a real browser: Debian's Chromium (playwright-core) against the service
// listening on port 0 with a seeded, settled database. The page must render the seeded figures
// (checked against the seed, not against itself) under the service's CSP, and a screenshot is kept
// in .ci/out/. Without Chromium the test is skipped locally and fails in CI (CI=true).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { RECORD_CASES, RECORD_NOW, seedRecord, seedUser } from './seed.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
if (!available && !inCi) {
  console.warn(`track-record page test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

interface ApiRecord {
  overall: { all_time: { one_x_two: { rps: number; baseline_brier: number } } };
  calibration: unknown[];
  monthly: unknown[];
}

const pct = (value: number) => `${(value * 100).toFixed(1).replace('.', ',')} %`;

describe.skipIf(!available && !inCi)('the /track-record page in Chromium', () => {
  let t: TestApp;
  let browser: Browser | undefined;
  let base: string;

  beforeAll(async () => {
    if (!available) throw new Error(`CI: Chromium is required at ${CHROMIUM} for the page test`);
    t = await createTestApp({ clock: new ManualClock(RECORD_NOW) });
    await seedRecord(t, [await seedUser(t), await seedUser(t)]);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
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
  });

  it('renders the seeded figures, the calibration chart and the monthly series', async () => {
    const page = await browser!.newPage({ viewport: { width: 1000, height: 1400 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const response = await page.goto(`${base}/track-record`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForSelector('#status[data-ready="true"]', { timeout: 15_000 });

    const judged = RECORD_CASES.filter((c) => c.outcome !== 'void');
    const won = judged.filter((c) => c.outcome === 'won').length;
    const cell = (name: string) => page.textContent(`[data-cell="${name}"]`);
    expect(await cell('overall:all_time:settled')).toBe(String(RECORD_CASES.length));
    expect(await cell('overall:all_time:won')).toBe(String(won));
    expect(await cell('overall:all_time:void')).toBe('1');
    expect(await cell('overall:all_time:hit_rate')).toBe(pct(won / judged.length));
    expect(await cell('overall:all_time:mean_confidence')).toBe(
      pct(judged.reduce((sum, c) => sum + c.confidence, 0) / judged.length),
    );
    const oneXTwo = RECORD_CASES.filter((c) => c.slug === '1x2' && c.outcome !== 'void');
    expect(await cell('type-1x2:all_time:settled')).toBe(String(oneXTwo.length + 1));
    expect(await cell('type-1x2:all_time:hit_rate')).toBe(
      pct(oneXTwo.filter((c) => c.outcome === 'won').length / oneXTwo.length),
    );
    // The scores are the API's own (their values are checked in endpoints.test.ts), shown in French.
    const api = (
      (await (await fetch(`${base}/api/track-record`)).json()) as { data: { track_record: ApiRecord } }
    ).data.track_record;
    expect(await cell('overall:all_time:rps')).toBe(
      api.overall.all_time.one_x_two.rps.toFixed(4).replace('.', ','),
    );
    expect(await cell('overall:all_time:baseline_brier')).toBe(
      api.overall.all_time.one_x_two.baseline_brier.toFixed(4).replace('.', ','),
    );
    expect(await page.locator('#calibration svg circle[data-bin]').count()).toBe(api.calibration.length);
    expect(await page.locator('#monthly svg rect[data-month]').count()).toBe(api.monthly.length);
    expect(await cell('monthly:2026-03:settled')).toBe(
      String(RECORD_CASES.filter((c) => c.match === 'm1' || c.match === 'm6' || c.match === null).length),
    );
    expect(errors).toEqual([]);

    const out = join(process.cwd(), '.ci', 'out');
    await mkdir(out, { recursive: true });
    await page.screenshot({ path: join(out, 'track-record.png'), fullPage: true });
    expect(existsSync(join(out, 'track-record.png'))).toBe(true);
  }, 60_000);
});
