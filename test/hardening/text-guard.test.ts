// Text PostgreSQL cannot store (NUL, a lone UTF-16 surrogate) is a 422 naming the field on every
// route, never a 500: body values and keys at any depth, query strings, data headers.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/engine/random.js';
import { isStorableText } from '../../src/plugins/app/text-guard.js';
import { fixedAnalyst } from '../fakes/analysts.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';

const valueMessage = (field: string) =>
  `Le champ ${field} contient un caractère non pris en charge (caractère nul ou caractère Unicode incomplet).`;
const keyMessage = (field: string) =>
  `Le nom du champ ${field} contient un caractère non pris en charge (caractère nul ou caractère Unicode incomplet).`;

function expect422(response: { statusCode: number; json(): unknown }, errors: Record<string, string[]>) {
  expect(response.statusCode).toBe(422);
  expect(response.json()).toEqual({
    user: null,
    message: Object.values(errors)[0]?.[0],
    data: [],
    errors,
  });
}

let t: TestApp;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ analyst: fixedAnalyst('dixon-coles-test') });
  user = await signIn(t, { credits: 100 });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

/** A create request with its JSON written by hand, so it can hold "\ud800" escapes. */
const createRaw = (json: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: { ...user.headers, 'content-type': 'application/json', ...headers },
    payload: json,
  });
const create = (teams: Record<string, unknown>, headers: Record<string, string> = {}) =>
  createRaw(JSON.stringify({ type_id: 1, teams_details: teams }), headers);

describe('POST /api/user/pronostic/create', () => {
  it('a NUL in a teams_details value is a 422 on that field, and nothing is debited', async () => {
    const response = await create({ home: 'Canon\u0000', away: 'Coton Sport' });
    expect422(response, { 'teams_details.home': [valueMessage('teams_details.home')] });
    const me = await t.app.inject({ method: 'GET', url: '/api/user/pronostics', headers: user.headers });
    expect(me.json().data.meta.total).toBe(0);
  });

  it('a NUL in a teams_details key names the key, written as \\u0000', async () => {
    const response = await create({ home: 'Canon', away: 'Coton', 'ref\u0000eree': 'X' });
    expect422(response, { 'teams_details.ref\\u0000eree': [keyMessage('teams_details.ref\\u0000eree')] });
  });

  it('a lone surrogate sent as a JSON escape is a 422; deep fields are named by their path', async () => {
    const lone = await createRaw(
      '{"type_id":1,"teams_details":{"home":"Canon","away":"Coton","league":"Elite \\ud800"}}',
    );
    expect422(lone, { 'teams_details.league': [valueMessage('teams_details.league')] });
    const deep = await createRaw(
      '{"type_id":1,"teams_details":{"home":"A","away":"B","notes":{"list":["ok","x\\udc00"]}}}',
    );
    expect422(deep, { 'teams_details.notes.list.1': [valueMessage('teams_details.notes.list.1')] });
  });

  it('every bad field is reported, in the order sent', async () => {
    const response = await create({ home: 'A\u0000', away: 'B\u0000' });
    expect422(response, {
      'teams_details.home': [valueMessage('teams_details.home')],
      'teams_details.away': [valueMessage('teams_details.away')],
    });
  });

  it('a surrogate pair (an emoji) is ordinary text and is stored', async () => {
    const response = await createRaw(
      '{"type_id":1,"teams_details":{"home":"Canon \\ud83d\\ude00","away":"Coton Sport"}}',
    );
    expect(response.statusCode).toBe(201);
    expect(response.json().data.pronostic.teams_details.home).toBe('Canon 😀');
  });

  it('an Idempotency-Key with a NUL is a 422 on the header', async () => {
    const response = await create({ home: 'A', away: 'B' }, { 'idempotency-key': 'key\u0000one' });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['Idempotency-Key']);
  });
});

describe('query strings and path parameters', () => {
  it('?search=%00 on GET /api/user/pronostics is a 422 on search', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/pronostics?search=Canon%00',
      headers: user.headers,
    });
    expect422(response, { search: [valueMessage('search')] });
  });

  it('a query field named __proto__ is a field like any other: reported, never the 500 of a broken report', async () => {
    const alone = await t.app.inject({
      method: 'GET',
      url: '/api/user/pronostics?__proto__=%00',
      headers: user.headers,
    });
    // A computed key: `{ __proto__: … }` would set the literal's prototype, not a field.
    expect422(alone, { ['__proto__']: [valueMessage('__proto__')] });
    const withBody = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create?__proto__=%00',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: '{"type_id":1,"teams_details":{"home":"A\\udfff","away":"B"}}',
    });
    expect422(withBody, {
      'teams_details.home': [valueMessage('teams_details.home')],
      ['__proto__']: [valueMessage('__proto__')],
    });
  });

  it('a path id holding a NUL is still the 404 of an id that is not a number', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/pronostic/%00',
      headers: user.headers,
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('the OTP routes', () => {
  it('generate: a NUL in the phone is a 422 that keeps its errors', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/otp/generate',
      payload: { phone: '+237670\u0000000001', country: 'CM', method: 'sms' },
    });
    expect422(response, { phone: [valueMessage('phone')] });
  });

  it('verify: a lone surrogate in the code is a 422 that keeps its errors', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/otp/verify',
      headers: { 'content-type': 'application/json' },
      payload: '{"phone":"+237670000001","code":"12345\\ud800"}',
    });
    expect422(response, { code: [valueMessage('code')] });
  });
});

describe('isStorableText', () => {
  it.each([
    ['', true],
    ['Canon Yaoundé', true],
    ['😀', true],
    ['a\u0000b', false],
    ['\ud800', false],
    ['\ud800x', false],
    ['\udc00', false],
    ['x\ude00\ud83d', false],
  ])('%j → %s', (text, storable) => {
    expect(isStorableText(text)).toBe(storable);
  });
});

describe('random text with such characters never gives a 500', () => {
  const random = seededRandom(20_260_314);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const pieces = ['\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '😀', 'é', 'a', 'Z', ' ', '%', '"', '\\'];
  /** 1 to 12 characters, one of them always NUL or a lone surrogate. */
  const characters = () => {
    const parts = Array.from({ length: Math.floor(random() * 12) }, () => pick(pieces));
    parts.splice(Math.floor(random() * (parts.length + 1)), 0, pick(pieces.slice(0, 5)));
    return parts;
  };
  const text = () => characters().join('');
  // A URL cannot carry a lone surrogate (it is not UTF-8): there the bad character is a NUL.
  const queryText = () =>
    characters()
      .map((part) => (isStorableText(part) ? encodeURIComponent(part) : '%00'))
      .join('');

  it('200 requests to create, list, generate and verify', async () => {
    const fuzz = await createTestApp({
      config: { rateLimit: false },
      analyst: fixedAnalyst('dixon-coles-test'),
    });
    try {
      const fuzzer = await signIn(fuzz, { credits: 1000 });
      const requests = [
        () => ({
          method: 'POST' as const,
          url: '/api/user/pronostic/create',
          headers: fuzzer.headers,
          payload: { type_id: 1, teams_details: { home: 'Canon', away: 'Coton', [text()]: text() } },
        }),
        () => ({
          method: 'POST' as const,
          url: '/api/user/pronostic/create',
          headers: fuzzer.headers,
          payload: { type_id: 1, teams_details: { home: text(), away: text(), league: text() } },
        }),
        () => ({
          method: 'GET' as const,
          url: `/api/user/pronostics?search=${queryText()}`,
          headers: fuzzer.headers,
        }),
        () => ({
          method: 'POST' as const,
          url: '/api/otp/generate',
          payload: { phone: `+2376${text()}`, country: 'CM', method: 'sms' },
        }),
        () => ({
          method: 'POST' as const,
          url: '/api/otp/verify',
          payload: { phone: text(), code: text() },
        }),
      ];
      const statuses: number[] = [];
      for (let i = 0; i < 200; i++) {
        const request = pick(requests)();
        const response = await fuzz.app.inject(request);
        expect(response.statusCode, `${request.method} ${request.url}: ${response.body}`).toBeLessThan(500);
        statuses.push(response.statusCode);
      }
      // Every request held such a character: none was accepted.
      expect(statuses.filter((status) => status < 400)).toEqual([]);
      await expectLedgerConsistent(fuzz);
    } finally {
      await fuzz.close();
    }
  });
});
