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
