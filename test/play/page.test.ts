// The public page /responsible-play (issue 54): both languages, 18+, the risks, the limits and the
// pause, help lines; RESPONSIBLE_PLAY_URL set elsewhere sends every 18+ link there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/lib/catalogues/en.js';
import { fr } from '../../src/lib/catalogues/fr.js';
import { createTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('GET /responsible-play', () => {
  it.each([
    ['fr', fr],
    ['en', en],
  ] as const)(
    'is served in %s with 18+, the risks, the limits, the pause and help lines',
    async (lang, texts) => {
      const page = await t.app.inject({ method: 'GET', url: `/responsible-play?lang=${lang}` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      const p = texts.playTexts.page;
      expect(page.body).toContain(`<html lang="${lang}">`);
      for (const part of [p.title, p.adults, p.risks, p.tools, p.help, ...p.helpItems, ...p.toolItems]) {
        expect(page.body).toContain(part);
      }
      expect(page.body).toContain('<strong>18+</strong>');
    },
  );

  it('sends its readers on to RESPONSIBLE_PLAY_URL when it names another page', async () => {
    const moved = await createTestApp({
      config: { responsiblePlay: { ageGate: false, ageMinimum: 18, url: 'https://aide.example.cm/jeu' } },
    });
    try {
      const page = await moved.app.inject({ method: 'GET', url: '/responsible-play' });
      expect(page.statusCode).toBe(302);
      expect(page.headers.location).toBe('https://aide.example.cm/jeu');
    } finally {
      await moved.close();
    }
  });
});
