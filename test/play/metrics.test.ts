// Responsible play in the metrics (issue 54): each refusal counted by its reason.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../helpers.js';
import { checkout } from '../payments/helpers.js';
import { GATE_ON, setBirthDate, setLimits } from './helpers.js';

const TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { ...GATE_ON, metricsToken: TOKEN } });
});
afterAll(() => t.close());

const refusals = async (reason: string) => {
  const body = (
    await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })
  ).body;
  const line = body
    .split('\n')
    .find((each) => each.startsWith(`pronostics_play_refusals_total{reason="${reason}"}`));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
};

it('counts the refusals of responsible play by reason', async () => {
  const user = await signIn(t);
  expect((await checkout(t, user)).statusCode).toBe(403);
  expect((await checkout(t, user)).statusCode).toBe(403);
  await setBirthDate(t, user, '1990-01-01');
  await setLimits(t, user, { daily: 100 });
  expect((await checkout(t, user)).statusCode).toBe(403);
  expect(await refusals('age_required')).toBe(2);
  expect(await refusals('limit_reached')).toBe(1);
  expect(await refusals('under_age')).toBe(0);
});
