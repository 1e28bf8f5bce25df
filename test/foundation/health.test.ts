import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestDatabase, type TestApp } from '../helpers.js';

describe('GET /api/', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 200 with the database up, without authentication', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: null,
      message: expect.any(String),
      data: {
        status: 'ok',
        version: '1.5.0',
        database: 'ok',
        time: t.clock.now().toISOString().replace('Z', '000Z'),
      },
      errors: [],
    });
  });

  it('answers 503 degraded when the database does not answer', async () => {
    const database = await createTestDatabase();
    const down = await createTestApp({ database });
    await database.handle.close();
    const response = await down.app.inject({ method: 'GET', url: '/api/' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      user: null,
      data: { status: 'degraded', version: '1.5.0', database: 'down' },
      errors: [],
    });
    await down.close();
    await database.drop();
  });
});
