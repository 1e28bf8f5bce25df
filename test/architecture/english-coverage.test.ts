// Every route the app serves has an English case (issue 40): the check catches a route left out and
// a label naming no route (planted), then the real app's routes all have one.
import { describe, expect, it } from 'vitest';
import { englishCoverageProblems, readEnglishTests } from '../../scripts/architecture/english-coverage.js';
import { createTestApp } from '../helpers.js';

const planted = {
  'test/fixtures/english.test.ts': [
    "it('GET /api/fixtures', async () => {});",
    "it('GET /api/fixtures/:id', async () => {});",
  ].join('\n'),
  'test/foundation/english.test.ts': "describe('english', () => { it('GET /api/', async () => {}); });",
};
const plantedRoutes = ['GET /api/', 'GET /api/fixtures', 'GET /api/fixtures/:id'];

describe('English coverage', () => {
  it('accepts planted tests that name every route', () => {
    expect(englishCoverageProblems(plantedRoutes, planted, [])).toEqual([]);
  });

  it('reports a route with no English case, unless excused with a reason', () => {
    const routes = [...plantedRoutes, 'POST /api/otp/generate'];
    expect(englishCoverageProblems(routes, planted, [])).toEqual(['POST /api/otp/generate: no English case']);
    expect(
      englishCoverageProblems(routes, planted, [{ route: 'POST /api/otp/generate', reason: 'planted' }]),
    ).toEqual([]);
  });

  it('reports a label that names no route served', () => {
    const files = { ...planted, 'test/packs/english.test.ts': "it('GET /api/packs/old', async () => {});" };
    expect(englishCoverageProblems(plantedRoutes, files, [])).toEqual([
      'GET /api/packs/old (test/packs/english.test.ts): not a route the app serves',
    ]);
  });

  it('every route the app serves has an English case', async () => {
    // The metrics route is registered only with a token.
    const t = await createTestApp({ config: { metricsToken: 'metrics-token-0123456789abcdef' } });
    const routes = t.app.routeCatalog
      .filter((route) => !route.hidden && route.method !== 'HEAD')
      .map((route) => `${route.method} ${route.url}`);
    await t.close();
    expect(routes.length).toBeGreaterThan(70);
    expect(englishCoverageProblems(routes, readEnglishTests())).toEqual([]);
  });
});
