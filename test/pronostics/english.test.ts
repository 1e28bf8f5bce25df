// English cases (issue 40) for the pronostics routes and the back office's pronostic types. The
// narration's language is tested with the analysis (helper en-account); here, messages and 422s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { fixedAnalyst } from '../fakes/analysts.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let user: SignedIn;
let admin: SignedIn;
let pronosticId: number;
const match = { home: 'Canon Yaoundé', away: 'Coton Sport', league: 'Elite One', date: '2026-03-14' };

beforeAll(async () => {
  t = await createTestApp({ analyst: fixedAnalyst('dixon-coles-test') });
  user = await signIn(t, { credits: 20 });
  admin = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());

describe('English', () => {
  it('GET /api/user/pronostic/types', async () => {
    const types = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/pronostic/types',
      headers: user.headers,
    });
    expectEnglish(types, 200, en.messages.pronosticTypes);
    // The types' names and descriptions too (issue 50): the English app showed the French.
    expect(types.json().data.types.map((type: { name: string }) => type.name)).toEqual([
      'Match result (1X2)',
      'Double chance',
      'Both teams to score',
      'Over/Under 2.5 goals',
      'Exact score',
      'Full analysis',
    ]);
    expect(types.json().data.types[0]).toEqual({
      id: 1,
      name: 'Match result (1X2)',
      slug: '1x2',
      description: 'Home win, draw or away win.',
      difficulty: 1,
      active: true,
    });
  });

  it('GET /api/user/pronostic/types without Accept-Language: the French bytes as before', async () => {
    const types = await t.app.inject({
      method: 'GET',
      url: '/api/user/pronostic/types',
      headers: user.headers,
    });
    const seeded = [
      [1, 'Résultat du match (1X2)', '1x2', "Victoire à domicile, match nul ou victoire à l'extérieur.", 1],
      [2, 'Double chance', 'double-chance', 'Deux issues sur trois couvertes : 1X, 12 ou X2.', 1],
      [3, 'Les deux équipes marquent', 'btts', 'Les deux équipes marqueront-elles au moins un but ?', 2],
      [
        4,
        'Plus/Moins de 2,5 buts',
        'over-under-2-5',
        'Trois buts ou plus dans le match, ou au plus deux.',
        2,
      ],
      [5, 'Score exact', 'exact-score', 'Les scores les plus probables du match.', 3],
      [
        6,
        'Analyse complète',
        'full-analysis',
        'Tous les marchés, les buts attendus et une analyse détaillée.',
        5,
      ],
    ] as const;
    const listed = seeded
      .map(
        ([id, name, slug, description, difficulty]) =>
          `{"id":${id},"name":"${name}","slug":"${slug}","description":"${description}","difficulty":${difficulty},"active":true}`,
      )
      .join(',');
    expect(types.body).toBe(
      `{"user":{"id":${user.id}},"message":"Types de pronostics.","data":{"types":[${listed}]},"errors":[]}`,
    );
  });

  it('POST /api/user/pronostic/create', async () => {
    const created = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: 1, teams_details: match },
    });
    expectEnglish(created, 201, en.messages.pronosticCreated);
    pronosticId = created.json().data.pronostic.id;
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: 1, teams_details: { ...match, away: match.home } },
    });
    expectEnglish(invalid, 422, en.messages.sameTeams);
    const unknownType = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { teams_details: match },
    });
    expectEnglish422(unknownType, 'type_id', en.validationMessages.required('type_id'));
  });

  it('GET /api/user/pronostics', async () => {
    const list = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/pronostics',
      headers: user.headers,
    });
    expectEnglish(list, 200, en.messages.pronosticList);
    const invalid = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/pronostics?per_page=1000',
      headers: user.headers,
    });
    expectEnglish422(invalid, 'per_page', invalid.json().errors.per_page[0]);
    expect(invalid.json().errors.per_page[0]).toMatch(/^The per_page field must be less than or equal to /);
  });

  it('GET /api/user/pronostic/:id', async () => {
    const one = await inEnglish(t.app, {
      method: 'GET',
      url: `/api/user/pronostic/${pronosticId}`,
      headers: user.headers,
    });
    expectEnglish(one, 200, en.messages.pronosticDetail);
    expect(one.json().data.pronostic.type).toEqual({
      id: 1,
      name: 'Match result (1X2)',
      slug: '1x2',
      difficulty: 1,
    });
    const french = await t.app.inject({
      method: 'GET',
      url: `/api/user/pronostic/${pronosticId}`,
      headers: user.headers,
    });
    expect(french.json().data.pronostic.type.name).toBe('Résultat du match (1X2)');
    const missing = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/pronostic/999999',
      headers: user.headers,
    });
    expectEnglish(missing, 404, en.messages.pronosticNotFound);
  });

  it('DELETE /api/user/pronostic/:id', async () => {
    const other = await signIn(t);
    const forbidden = await inEnglish(t.app, {
      method: 'DELETE',
      url: `/api/user/pronostic/${pronosticId}`,
      headers: other.headers,
    });
    expect(forbidden.headers['content-language']).toBe('en');
    expect([403, 404]).toContain(forbidden.statusCode);
    const deleted = await inEnglish(t.app, {
      method: 'DELETE',
      url: `/api/user/pronostic/${pronosticId}`,
      headers: user.headers,
    });
    expectEnglish(deleted, 200, en.messages.pronosticDeleted);
  });

  it('GET /api/admin/pronostic-types', async () => {
    const list = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/admin/pronostic-types',
      headers: admin.headers,
    });
    expectEnglish(list, 200, en.messages.adminPronosticTypes);
  });

  it('POST /api/admin/pronostic-types', async () => {
    const unknown = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/admin/pronostic-types',
      headers: admin.headers,
      payload: { slug: 'corners', name: 'Corners', description: 'Corner count', difficulty: 2 },
    });
    expectEnglish422(unknown, 'slug', en.messages.pronosticTypeUnknownSlug);
    const taken = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/admin/pronostic-types',
      headers: admin.headers,
      payload: { slug: 'btts', name: 'Again', description: 'Both score', difficulty: 2 },
    });
    expectEnglish(taken, 409, en.messages.pronosticTypeExists);
  });

  it('PATCH /api/admin/pronostic-types/:id', async () => {
    const updated = await inEnglish(t.app, {
      method: 'PATCH',
      url: '/api/admin/pronostic-types/1',
      headers: admin.headers,
      payload: { difficulty: 2 },
    });
    expectEnglish(updated, 200, en.messages.pronosticTypeUpdated);
    const nothing = await inEnglish(t.app, {
      method: 'PATCH',
      url: '/api/admin/pronostic-types/1',
      headers: admin.headers,
      payload: {},
    });
    expectEnglish(nothing, 422, en.messages.pronosticTypeNothingToChange);
  });
});
