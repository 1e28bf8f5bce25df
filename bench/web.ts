// The web app on a phone's link (issue 41, "Light on a phone"): Debian's Chromium with a "Fast 3G"
// link (1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip) and a CPU slowed 4× (a mid-range
// Android), each run on a cold cache (a new browser context: no HTTP cache, no service worker):
//   - usable: from the navigation to /app/ until the sign-in form's phone field is there and
//     enabled; the reference, in the same run and link, is the navigation to `GET /api/` (a small
//     JSON answer: what the link alone costs), and the figure is reported beside it;
//   - the first screen's JavaScript and CSS as transferred (compressed, headers included);
//   - Lighthouse 12.2.3 (mobile, its own simulated throttling) on /app/: performance,
//     accessibility and best practices.
// `npm run bench:web` (RUNS=5 by default); run it with nothing else on the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import { type Browser, chromium } from 'playwright-core';
import { build } from 'vite';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openConfiguredDatabase } from '../src/db/open.js';

const RUNS = Number(process.env.RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FAST_3G = {
  offline: false,
  latency: 150,
  downloadThroughput: 1_600_000 / 8,
  uploadThroughput: 750_000 / 8,
};
const TARGETS = { usableMs: 3000, firstScreenKb: 60, performance: 90, accessibility: 95, bestPractices: 90 };

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const buildDir = mkdtempSync(join(tmpdir(), 'bench-web-build-'));
const dataDir = mkdtempSync(join(tmpdir(), 'bench-web-data-'));
await build({
  configFile: join(import.meta.dirname, '..', 'webapp', 'vite.config.ts'),
  build: { outDir: buildDir, emptyOutDir: true },
  logLevel: 'warn',
});
const config = testConfig({ webappDir: buildDir, dataDir, rateLimit: false });
const database = await openConfiguredDatabase(config, 'service');
const app = await buildApp({ config, database, logger: false, runLoops: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
const debuggingPort = await freePort();
const browser: Browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
    `--remote-debugging-port=${debuggingPort}`,
  ],
});

/** One cold navigation on the slow link: ms until `ready` resolves, and the JS/CSS bytes transferred. */
async function coldLoad(url: string, ready: (page: import('playwright-core').Page) => Promise<unknown>) {
  const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', FAST_3G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const started = performance.now();
  await page.goto(url, { waitUntil: 'commit' });
  await ready(page);
  const ms = performance.now() - started;
  const bytes = (await page.evaluate(`performance.getEntriesByType('resource')
    .filter((entry) => /\\.(js|css)$/.test(new URL(entry.name).pathname))
    .reduce((sum, entry) => sum + entry.transferSize, 0)`)) as number;
  await context.close();
  return { ms, bytes };
}

try {
  const usable: number[] = [];
  const reference: number[] = [];
  const firstScreen: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const api = await coldLoad(`${base}/api/`, (page) => page.waitForLoadState('load'));
    reference.push(api.ms);
    const shell = await coldLoad(`${base}/app/`, async (page) => {
      const phone = page.getByLabel('Numéro de téléphone');
      await phone.waitFor({ state: 'visible' });
      if (!(await phone.isEnabled())) throw new Error('the phone field is not enabled');
    });
    usable.push(shell.ms);
    firstScreen.push(shell.bytes);
  }
  const report = await lighthouse(`${base}/app/`, {
    port: debuggingPort,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
  });
  const categories = report?.lhr.categories ?? {};
  const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
  const figures = {
    usableMs: Math.round(median(usable)),
    referenceMs: Math.round(median(reference)),
    firstScreenKb: Math.round(median(firstScreen) / 102.4) / 10,
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
  };
  console.log(
    `usable on Fast 3G, cold: ${usable.map(Math.round).join(', ')} ms (median ${figures.usableMs}); GET /api/ on the same link: median ${figures.referenceMs} ms (${(figures.usableMs / figures.referenceMs).toFixed(1)}×)`,
  );
  console.log(`first screen JS + CSS transferred: ${figures.firstScreenKb} KB`);
  console.log(
    `Lighthouse 12.2.3 mobile: performance ${figures.performance}, accessibility ${figures.accessibility}, best practices ${figures.bestPractices}`,
  );
  const missed = [
    figures.usableMs > TARGETS.usableMs && `usable ${figures.usableMs} ms > ${TARGETS.usableMs}`,
    figures.firstScreenKb > TARGETS.firstScreenKb &&
      `first screen ${figures.firstScreenKb} KB > ${TARGETS.firstScreenKb}`,
    figures.performance < TARGETS.performance &&
      `performance ${figures.performance} < ${TARGETS.performance}`,
    figures.accessibility < TARGETS.accessibility &&
      `accessibility ${figures.accessibility} < ${TARGETS.accessibility}`,
    figures.bestPractices < TARGETS.bestPractices &&
      `best practices ${figures.bestPractices} < ${TARGETS.bestPractices}`,
  ].filter(Boolean);
  console.log(
    `summary: ${JSON.stringify(figures)}${missed.length ? ` MISSED: ${missed.join('; ')}` : ' (every target met)'}`,
  );
  process.exitCode = missed.length ? 1 : 0;
} finally {
  await browser.close();
  await app.close();
  rmSync(buildDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}
