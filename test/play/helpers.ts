// Responsible play test pieces: the profile's date of birth, the limits, the self-exclusion's code
// flow, and an app with the age gate on.
import { expect } from 'vitest';
import type { Config } from '../../src/config.js';
import { nextAddress } from '../account/helpers.js';
import type { SignedIn, TestApp } from '../helpers.js';

/** The responsible-play settings with the age gate on (the test suite runs with it off). */
export const GATE_ON: Partial<Config> = {
  responsiblePlay: { ageGate: true, ageMinimum: 18, url: '/responsible-play' },
};

export function setBirthDate(t: TestApp, user: SignedIn, birthDate: string, lang?: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/profile/update',
    headers: { ...user.headers, ...(lang ? { 'accept-language': lang } : {}) },
    payload: { birth_date: birthDate },
  });
}

export function setLimits(t: TestApp, user: SignedIn, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/wallet/limits',
    headers: user.headers,
    payload: body,
  });
}

export async function limitsOf(t: TestApp, user: SignedIn) {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/user/wallet/limits',
    headers: user.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as {
    limits: Record<string, number | null>;
    pending: Record<string, { amount: number | null; effective_at: string } | null>;
  };
}

/** Asks for a self-exclusion code and confirms `days` with it; the answer. */
export async function excludeSelf(t: TestApp, user: SignedIn, days: number) {
  const sent = await t.app.inject({
    method: 'POST',
    url: '/api/user/account/self-exclusion/code',
    headers: user.headers,
    remoteAddress: nextAddress(),
  });
  expect(sent.statusCode, sent.body).toBe(200);
  return t.app.inject({
    method: 'POST',
    url: '/api/user/account/self-exclusion',
    headers: user.headers,
    payload: { code: t.outbox!.lastCode(user.phone), days },
    remoteAddress: nextAddress(),
  });
}
