// The list answer splices each row's JSON text (the stored json, as it was written) instead of
// parsing the analyses and serializing them again (issue 28). Its answer must say exactly what the
// schema's serializer says for the same rows read as objects: checked here, deep-equal, for every
// result shape the service stores (each type's analysis, settled or not, a cancellation, none yet)
// and for the text and numbers JSON makes hard (quotes, backslashes, control characters, accents,
// emoji, exponents, extra match keys), on the unfiltered page and on the filtered ones; and the
// detail answer, which splices the row's `teams_details` and `result` texts the same way.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitModel } from '../../src/engine/model.js';
import { buildResult } from '../../src/engine/result.js';
import { pronosticTypeSlugs } from '../../src/lib/allowed-values.js';
import { envelope } from '../../src/lib/envelope.js';
import { messages } from '../../src/lib/messages.js';
import { findLivePronostic, listPronostics } from '../../src/modules/pronostics/repository.js';
import { DetailedPronostic, ListData } from '../../src/modules/pronostics/schemas.js';
import { detailView, listedView } from '../../src/modules/pronostics/service.js';
import { Envelope } from '../../src/schemas/common.js';
import { simulateLeague } from '../engine/simulate.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let user: SignedIn;

/** Every shape of `result` and `teams_details` the rows below carry. */
function shapes(): { typeId: number; status: string; teams: unknown; result: unknown }[] {
  const { matches } = simulateLeague({ teams: 8, seasons: 2, seed: 11 });
  const model = fitModel(matches, matches.at(-1)!.date + 86_400_000);
  const context = {
    home: { name: 'Team 01', known: true, matches: 40, form: null },
    away: { name: 'Team 02', known: true, matches: 40, form: null },
    league: { name: 'Elite One', known: true },
  };
  const teams = { home: 'Team 01', away: 'Team 02', league: 'Elite One', date: '2026-03-14' };
  const analyses = pronosticTypeSlugs.map((slug, index) => ({
    typeId: index + 1,
    status: 'success',
    teams,
    result: buildResult(slug, model.predict('Team 01', 'Team 02'), context).result as unknown,
  }));
  const settled = analyses.map((row) => ({
    ...row,
    result: {
      ...(row.result as object),
      settlement: { outcome: 'won', score: '2-1', match_id: 17, settled_at: '2026-03-15T10:00:00.000Z' },
    },
  }));
  return [
    ...analyses,
    ...settled,
    { typeId: 1, status: 'processing', teams, result: null },
    {
      typeId: 2,
      status: 'cancelled',
      teams,
      result: { reason: 'analysis_failed', message: 'L’analyse a échoué : crédits remboursés.' },
    },
    {
      typeId: 3,
      status: 'success',
      teams: {
        home: 'Équipe "A" \\ l’Étoile',
        away: 'Coton Sport ⚽ 🇨🇲',
        league: 'Ligue\n1\t</script>',
        stadium: { name: 'Omnisport', capacity: 42_000, covered: false, seats: [1, 2.5, -0] },
        note: null,
      },
      result: {
        tiny: 1e-7,
        huge: 1e21,
        negative: -0.000123,
        integerish: 3.0,
        exact: 0.1 + 0.2,
        control: '\u0001\u001f',
        empty: {},
        list: [[], [{}], 'x'],
        unicode: 'Yaoundé · 𝄞',
      },
    },
    { typeId: 4, status: 'success', teams: { home: 'A', away: 'B' }, result: {} },
  ];
}

beforeAll(async () => {
  t = await createTestApp({
    beforeReady: (app) => {
      // The same answer written the other way: the rows read as objects, through the route's schema.
      app.get(
        '/test/pronostics-as-objects',
        {
          schema: {
            querystring: Type.Object({
              offset: Type.Integer(),
              status: Type.Optional(Type.String()),
              search: Type.Optional(Type.String()),
            }),
            response: {
              200: Envelope(ListData, Type.Object({ id: Type.Integer(), phone: Type.String() })),
            },
          },
        },
        async (request) => {
          const query = request.query as { offset: number; status?: 'success'; search?: string };
          const rows = await listPronostics(
            app.db,
            {
              userId: user.id,
              ...(query.status ? { status: query.status } : {}),
              ...(query.search ? { search: query.search } : {}),
            },
            { limit: 10, offset: query.offset },
          );
          return envelope({
            user: { id: user.id, phone: user.phone },
            message: messages.pronosticList,
            data: {
              pronostics: rows.map(listedView),
              meta: { current_page: 0, last_page: 0, per_page: 10, total: 0, has_more: false },
            },
          });
        },
      );

      // The detail the same way: the row read as objects, through the detail route's schema.
      app.get(
        '/test/pronostic-as-object/:id',
        {
          schema: {
            params: Type.Object({ id: Type.Integer() }),
            response: {
              200: Envelope(
                Type.Object({ pronostic: DetailedPronostic }),
                Type.Object({ id: Type.Integer() }),
              ),
            },
          },
        },
        async (request) => {
          const found = await findLivePronostic(app.db, (request.params as { id: number }).id);
          return envelope({
            user: { id: user.id },
            message: messages.pronosticDetail,
            data: { pronostic: detailView(found!) },
          });
        },
      );
    },
  });
  user = await signIn(t);
  const rows = shapes();
  await t.app.db.execute(sql`
    INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, result, ai_model,
                            search_text, run_after, deadline_at, created_at)
    SELECT ${user.id}, x.type_id, x.status, 1, x.teams, x.result, 'dixon-coles-"5"',
           'team', now(), now(), timestamptz '2026-03-14 10:11:12.345678+00' - make_interval(secs => x.n)
    FROM jsonb_to_recordset(${JSON.stringify(
      rows.map((row, n) => ({
        n,
        type_id: row.typeId,
        status: row.status,
        teams: row.teams,
        result: row.result,
      })),
    )}::jsonb) AS x(n int, type_id int, status text, teams jsonb, result jsonb)`);
  await t.app.db.execute(sql`
    INSERT INTO pronostic_counters (user_id, live) VALUES (${user.id}, ${rows.length})
    ON CONFLICT (user_id) DO UPDATE SET live = EXCLUDED.live`);
});
afterAll(() => t.close());

async function bodyOf(url: string) {
  const response = await t.app.inject({ method: 'GET', url, headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return JSON.parse(response.body) as { data: { pronostics: unknown[]; meta: unknown } };
}

describe('the list answer, spliced from stored JSON text', () => {
  const pages = [
    { list: 'page=1', objects: 'offset=0' },
    { list: 'page=2', objects: 'offset=10' },
    { list: 'page=1&status=success', objects: 'offset=0&status=success' },
    { list: 'page=2&status=success', objects: 'offset=10&status=success' },
    { list: 'page=1&search=team', objects: 'offset=0&search=team' },
  ];
  for (const { list, objects } of pages) {
    it(`deep-equals the schema's answer for the same rows (${list})`, async () => {
      const spliced = await bodyOf(`/api/user/pronostics?${list}`);
      const expected = await bodyOf(`/test/pronostics-as-objects?${objects}`);
      expect(spliced.data.pronostics.length).toBeGreaterThan(0);
      expect(spliced.data.pronostics).toEqual(expected.data.pronostics);
      expect({ ...spliced, data: { pronostics: [] } }).toEqual({ ...expected, data: { pronostics: [] } });
    });
  }

  it('covers every shape: each type with and without its settlement, a cancellation, none yet', async () => {
    const all = [
      ...(await bodyOf('/api/user/pronostics?page=1')).data.pronostics,
      ...(await bodyOf('/api/user/pronostics?page=2')).data.pronostics,
    ] as { status: string; result: Record<string, unknown> | null; created_at: string }[];
    expect(all).toHaveLength(shapes().length);
    expect(all.filter((row) => row.result === null)).toHaveLength(1);
    expect(all.filter((row) => row.result?.settlement)).toHaveLength(pronosticTypeSlugs.length);
    expect(all.filter((row) => row.status === 'cancelled')).toHaveLength(1);
    // The stored microseconds, as every other answer shows them.
    expect(all[0]!.created_at).toBe('2026-03-14T10:11:12.345678Z');
  });
});

describe('the detail answer, spliced from stored JSON text', () => {
  it("deep-equals the schema's answer for every stored shape", async () => {
    const listed = [
      ...(await bodyOf('/api/user/pronostics?page=1')).data.pronostics,
      ...(await bodyOf('/api/user/pronostics?page=2')).data.pronostics,
    ] as { id: number; created_at: string }[];
    expect(listed).toHaveLength(shapes().length);
    for (const { id, created_at } of listed) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/user/pronostic/${id}`,
        headers: user.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      const spliced = JSON.parse(response.body);
      const expected = JSON.parse(
        (await t.app.inject({ method: 'GET', url: `/test/pronostic-as-object/${id}`, headers: user.headers }))
          .body,
      );
      // The stored microseconds, as the list shows them.
      expect(spliced.data.pronostic.created_at).toBe(created_at);
      expect(spliced, String(id)).toEqual(expected);
    }
  });
});
