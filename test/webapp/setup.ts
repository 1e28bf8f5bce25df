// What the web app's browser tests share: a Vite build of webapp/ into a temporary folder (as
// `npm run build` builds it), and the sign-in walk through the screens, in the screens' language.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { build } from 'vite';
import { fr } from '../../webapp/src/i18n/fr.js';
import type { TestApp } from '../helpers.js';

export type Texts = typeof fr;

/** The web app built into a new temporary folder; the folder. */
export async function buildWebapp(prefix: string): Promise<string> {
  const outDir = await mkdtemp(join(tmpdir(), prefix));
  await build({
    configFile: join(process.cwd(), 'webapp', 'vite.config.ts'),
    build: { outDir, emptyOutDir: true },
    logLevel: 'warn',
  });
  return outDir;
}

/** Phone (the national number, as people type it) → code from the outbox → the home screen. */
export async function signInThroughUi(page: Page, t: TestApp, phone: string, L: Texts = fr): Promise<void> {
  await page.getByLabel(L.phone).fill(phone.slice(4));
  await page.getByRole('button', { name: L.sendCode }).click();
  await page.getByLabel(L.code).waitFor();
  await page.getByLabel(L.code).fill(t.outbox!.lastCode(phone));
  await page.getByRole('button', { name: L.verify }).click();
  await page.getByRole('heading', { name: L.homeTitle }).waitFor();
}
