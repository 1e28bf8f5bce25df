// GET /api/competitions sorts some forty competitions by country name in the caller's language with
// one `Intl.Collator` per language, built once per process (issue 57): a request builds no
// collator and calls no `localeCompare` (which builds an ICU collator per call when given a
// locale), and the order is still the language's (test/fixtures/competitions.test.ts has the rest).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
});
afterAll(() => t.close());

async function countries(lang: string): Promise<string[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/competitions',
    headers: { ...user.headers, 'accept-language': lang },
  });
  expect(response.statusCode, response.body).toBe(200);
  const listed = response.json().data.competitions as { country: { name: string } | null }[];
  return listed.flatMap((competition) => (competition.country ? [competition.country.name] : []));
}

describe('the competitions’ order', () => {
  it('builds no collator and calls no localeCompare per request, in either language', async () => {
    await countries('fr');
    await countries('en');
    const compared = vi.spyOn(String.prototype, 'localeCompare');
    const built = vi.spyOn(Intl, 'Collator');
    let listed: Record<string, string[]>;
    try {
      listed = { fr: await countries('fr'), en: await countries('en') };
      expect(compared).not.toHaveBeenCalled();
      expect(built).not.toHaveBeenCalled();
    } finally {
      compared.mockRestore();
      built.mockRestore();
    }
    for (const [lang, names] of Object.entries(listed)) {
      expect(names.length, lang).toBeGreaterThan(10);
      expect(names, lang).toEqual([...names].sort(new Intl.Collator(lang).compare));
    }
  });
});
