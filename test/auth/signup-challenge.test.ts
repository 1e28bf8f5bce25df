// The sign-up challenge (issue 42, decision 0104): while the strangers' share of an SMS budget is
// half used, a number that never verified a code gets a 428 with an ALTCHA challenge instead of a
// code, and gets its code by sending the same request with the solved proof, once; each stranger
// network has a small share; returning numbers and RATE_LIMIT=off are never asked. Then the flood:
// an attacker on 13 IPv4 addresses or one IPv6 /56 solving every challenge, while new users from
// other networks still get their codes.
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { describe, expect, it } from 'vitest';
import {
  type Answer,
  probeMembership,
  proofOf,
  simulateSignupFlood,
} from '../../scripts/attacks/signup-flood.js';
import { challengeCounters, networkShare } from '../../src/modules/auth/signup-challenge.js';
import { PROBE_DISTINCT_NUMBERS } from '../../src/modules/auth/sms-limits.js';
import { createTestDatabase } from '../helpers.js';
import { createOtpApp, generate, mobilePhone, type OtpTestApp, requestCode, verify } from './helpers.js';

// A +237 budget of 20 an hour: strangers may use 10, the challenge starts at 5, a network's share is 1.
const CONFIG = {
  otpCountryHourlyBudget: 20,
  otpGlobalHourlyBudget: 1000,
  otpReturningSharePercent: 50,
  signupChallengeCost: 10,
};
const CHALLENGE_FR =
  'Une vérification de votre appareil est nécessaire avant l’envoi du code : elle se fait automatiquement.';
const PROOF_FR = 'La vérification de votre appareil a échoué ou a expiré. Redemandez le code.';
const PROOF_EN = 'The check of your device failed or expired. Ask for the code again.';
const NETWORK_FR = 'Trop de nouvelles inscriptions depuis votre réseau en ce moment. Réessayez plus tard.';

let networkCounter = 0;
/** A client address on a network (IPv4 /32) no other request of this file uses. */
function freshIp(): string {
  networkCounter += 1;
  return `192.0.${Math.floor(networkCounter / 250)}.${(networkCounter % 250) + 1}`;
}

/** Sends `count` codes to new numbers from networks of their own: the strangers' share fills up. */
async function pressurize(t: OtpTestApp, count = 5): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await generate(
      t,
      { phone: mobilePhone(), country: 'CM', method: 'sms' },
      { ip: freshIp() },
    );
    expect(response.statusCode).toBe(200);
  }
}

async function solve(challenge: Challenge) {
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('unsolved');
  return solution;
}

async function challengeFor(t: OtpTestApp, phone: string, ip: string): Promise<Challenge> {
  const response = await generate(t, { phone, country: 'CM', method: 'sms' }, { ip });
  expect(response.statusCode).toBe(428);
  return response.json().data.challenge;
}

describe('the sign-up challenge', () => {
  it('without pressure, a new number gets its code at once, the answer as before', async () => {
    const t = await createOtpApp({ config: CONFIG });
    try {
      // Four codes: the strangers' share (10) is 40 % used, under the line.
      for (let i = 0; i < 4; i++) {
        const phone = mobilePhone();
        const response = await generate(t, { phone, country: 'CM', method: 'sms' }, { ip: freshIp() });
        expect(response.statusCode).toBe(200);
        expect(Object.keys(response.json()).sort()).toEqual(['data', 'message', 'user']);
        expect(response.json()).toMatchObject({ user: null, data: { phone } });
      }
      expect(t.messenger.sent).toHaveLength(4);
    } finally {
      await t.close();
    }
  });

  it('under pressure: 428 with an ALTCHA challenge and no code; the solved proof gets the code, once', async () => {
    const t = await createOtpApp({ config: CONFIG });
    try {
      await pressurize(t);
      const phone = mobilePhone();
      const ip = freshIp();
      const asked = await generate(t, { phone, country: 'CM', method: 'sms' }, { ip });
      expect(asked.statusCode).toBe(428);
      const body = asked.json();
      expect(body).toEqual({
        user: null,
        message: CHALLENGE_FR,
        data: {
          challenge: {
            parameters: {
              algorithm: 'PBKDF2/SHA-256',
              cost: 10,
              keyLength: 32,
              keyPrefix: expect.stringMatching(/^[0-9a-f]{32}$/),
              keySignature: expect.stringMatching(/^[0-9a-f]{64}$/),
              nonce: expect.any(String),
              salt: expect.any(String),
              data: {
                expires_at: Math.floor(t.clock.now().getTime() / 1000) + 300,
                phone: expect.any(String),
              },
            },
            signature: expect.stringMatching(/^[0-9a-f]{64}$/),
          },
        },
      });
      expect(t.messenger.sent.filter((m) => m.to === phone)).toHaveLength(0);

      const challenge = body.data.challenge as Challenge;
      const proof = proofOf(challenge, await solve(challenge));
      const served = await generate(t, { phone, country: 'CM', method: 'sms', proof }, { ip });
      expect(served.statusCode).toBe(200);
      expect(served.json()).toMatchObject({ user: null, data: { phone } });
      expect(t.messenger.sent.filter((m) => m.to === phone)).toHaveLength(1);

      // The same proof again, past the cooldown and from another network: refused.
      t.clock.advanceSeconds(61);
      const replay = await generate(t, { phone, country: 'CM', method: 'sms', proof }, { ip: freshIp() });
      expect(replay.statusCode).toBe(422);
      expect(replay.json().errors).toEqual({ proof: [PROOF_FR] });
      expect(t.messenger.sent.filter((m) => m.to === phone)).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('a wrong proof is a 422 on proof, in French and in English, and sends nothing', async () => {
    const t = await createOtpApp({ config: CONFIG });
    try {
      await pressurize(t);
      const phone = mobilePhone();
      const challenge = await challengeFor(t, phone, freshIp());
      const solution = await solve(challenge);
      const wrongs = [
        Buffer.from('not json').toString('base64'),
        Buffer.from(JSON.stringify({ challenge })).toString('base64'),
        // Another key than the one found: the key's signature does not hold.
        proofOf(challenge, {
          ...solution,
          derivedKey: solution.derivedKey.replace(/^./, (c) => (c === '0' ? '1' : '0')),
        }),
        // The parameters changed (cheaper): the challenge's signature does not hold.
        proofOf({ ...challenge, parameters: { ...challenge.parameters, cost: 1 } }, solution),
      ];
      for (const proof of wrongs) {
        const french = await generate(t, { phone, country: 'CM', method: 'sms', proof }, { ip: freshIp() });
        expect(french.statusCode).toBe(422);
        expect(french.json()).toMatchObject({ message: PROOF_FR, errors: { proof: [PROOF_FR] } });
      }
      const english = await generate(
        t,
        { phone, country: 'CM', method: 'sms', proof: wrongs[0] },
        { ip: freshIp(), headers: { 'accept-language': 'en' } },
      );
      expect(english.json()).toMatchObject({ message: PROOF_EN, errors: { proof: [PROOF_EN] } });

      // A proof solved for one number does not serve another.
      const other = mobilePhone();
      const forOther = await generate(
        t,
        { phone: other, country: 'CM', method: 'sms', proof: proofOf(challenge, solution) },
        { ip: freshIp() },
      );
      expect(forOther.statusCode).toBe(422);

      // Nor once its 5 minutes are over.
      t.clock.advanceSeconds(301);
      const late = await generate(
        t,
        { phone, country: 'CM', method: 'sms', proof: proofOf(challenge, solution) },
        { ip: freshIp() },
      );
      expect(late.statusCode).toBe(422);
      expect(t.messenger.sent.filter((m) => m.to === phone || m.to === other)).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it('the schema takes proof as a string of at most 4096 characters', async () => {
    const t = await createOtpApp({ config: CONFIG });
    try {
      for (const proof of ['A'.repeat(4097), 12, '']) {
        const response = await generate(
          t,
          { phone: mobilePhone(), country: 'CM', method: 'sms', proof },
          { ip: freshIp() },
        );
        expect(response.statusCode).toBe(422);
        expect(Object.keys(response.json().errors)).toEqual(['proof']);
      }
    } finally {
      await t.close();
    }
  });

  it('a number that verified a code before is never challenged', async () => {
    const t = await createOtpApp({ config: CONFIG });
    try {
      const owner = mobilePhone();
      const ownerIp = freshIp();
      const code = await requestCode(t, owner, { ip: ownerIp });
      expect((await verify(t, { phone: owner, code }, { ip: ownerIp })).statusCode).toBe(200);
      await pressurize(t, 4);
      t.clock.advanceSeconds(61);
      // From the owner's network, and from one past its share: a code each time.
      const again = await generate(t, { phone: owner, country: 'CM', method: 'sms' }, { ip: ownerIp });
      expect(again.statusCode).toBe(200);
      t.clock.advanceSeconds(61);
      const stranger = freshIp();
      await solveAndSend(t, mobilePhone(), stranger);
      const fromThere = await generate(t, { phone: owner, country: 'CM', method: 'sms' }, { ip: stranger });
      expect(fromThere.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('under pressure, a network asking for many numbers learns nothing: known and unknown numbers answer alike', async () => {
    // Strangers may use 20 an hour, the challenge starts at 10: eight members, then two new numbers.
    const t = await createOtpApp({ config: { ...CONFIG, otpCountryHourlyBudget: 40 } });
    try {
      const known: string[] = [];
      for (let i = 0; i < 8; i++) {
        const owner = mobilePhone();
        const ownerIp = freshIp();
        const code = await requestCode(t, owner, { ip: ownerIp });
        expect((await verify(t, { phone: owner, code }, { ip: ownerIp })).statusCode).toBe(200);
        known.push(owner);
      }
      await pressurize(t, 2);
      t.clock.advanceSeconds(61);
      const send = async (body: Record<string, unknown>, ip: string): Promise<Answer> => {
        const response = await generate(t, body, { ip });
        return { status: response.statusCode, body: response.json() };
      };
      const unknown = known.map(() => mobilePhone());
      const probe = await probeMembership(send, { known, unknown }, freshIp(), PROBE_DISTINCT_NUMBERS);
      expect(probe.known.length + probe.unknown.length).toBe(16 - PROBE_DISTINCT_NUMBERS);
      expect(probe).toMatchObject({ distinguishable: false });
      expect(new Set([...probe.known, ...probe.unknown])).toEqual(new Set([428]));
      // A returning user elsewhere, on a client that cannot solve a challenge, still gets a code.
      const fromHome = await generate(
        t,
        { phone: known.at(-1), country: 'CM', method: 'sms' },
        { ip: freshIp() },
      );
      expect(fromHome.statusCode, fromHome.body).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('under pressure each stranger network has its share: an IPv4 address, an IPv6 /48', async () => {
    const t = await createOtpApp({ config: CONFIG });
    try {
      await pressurize(t);
      const ip = freshIp();
      await solveAndSend(t, mobilePhone(), ip);
      // Its share (1) is used: a 429 at once, no challenge to solve for nothing.
      const second = await generate(t, { phone: mobilePhone(), country: 'CM', method: 'sms' }, { ip });
      expect(second.statusCode).toBe(429);
      expect(second.json()).toMatchObject({ message: NETWORK_FR, data: { retry_after: 3600 } });
      // Another /64 of the same /48 is the same network; another /48 is not.
      await solveAndSend(t, mobilePhone(), '2001:db8:77:1::1');
      const sameSite = await generate(
        t,
        { phone: mobilePhone(), country: 'CM', method: 'sms' },
        { ip: '2001:db8:77:ff::2' },
      );
      expect(sameSite.statusCode).toBe(429);
      await solveAndSend(t, mobilePhone(), '2001:db8:78:1::1');
      // An hour later the share is back.
      t.clock.advanceSeconds(3601);
      const later = await generate(t, { phone: mobilePhone(), country: 'CM', method: 'sms' }, { ip });
      expect(later.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('RATE_LIMIT=off lifts the challenge', async () => {
    const database = await createTestDatabase();
    try {
      const limited = await createOtpApp({ config: CONFIG, database });
      await pressurize(limited);
      await challengeFor(limited, mobilePhone(), freshIp());
      const clock = limited.clock;
      await limited.close();
      const unlimited = await createOtpApp({ config: { ...CONFIG, rateLimit: false }, database, clock });
      try {
        for (let i = 0; i < 3; i++) {
          const response = await generate(
            unlimited,
            { phone: mobilePhone(), country: 'CM', method: 'sms' },
            { ip: freshIp() },
          );
          expect(response.statusCode).toBe(200);
        }
      } finally {
        await unlimited.close();
      }
    } finally {
      await database.drop();
    }
  });

  it('the work grows with the pressure; the share of a network is 2 % of the strangers', () => {
    expect([0.49, 0.5, 0.6, 0.625, 0.75, 0.9, 1].map(challengeCounters)).toEqual([
      0, 500, 500, 1000, 2000, 2000, 2000,
    ]);
    expect([250, 100, 10, 0].map(networkShare)).toEqual([5, 2, 1, 1]);
  });

  it('the OpenAPI document shows the 428 and its challenge, and proof in the body', async () => {
    const t = await createOtpApp({ config: CONFIG });
    try {
      // biome-ignore lint/suspicious/noExplicitAny: the document is read as plain JSON.
      const document = t.app.swagger() as any;
      const operation = document.paths['/api/otp/generate'].post;
      const answer = operation.responses['428'].content['application/json'].schema;
      expect(answer.properties.data.properties.challenge.required).toEqual(['parameters', 'signature']);
      const body = operation.requestBody.content['application/json'].schema;
      expect(body.properties.proof).toMatchObject({ type: 'string', maxLength: 4096 });
      expect(body.required).not.toContain('proof');
    } finally {
      await t.close();
    }
  });
});

async function solveAndSend(t: OtpTestApp, phone: string, ip: string): Promise<void> {
  const challenge = await challengeFor(t, phone, ip);
  const proof = proofOf(challenge, await solve(challenge));
  const response = await generate(t, { phone, country: 'CM', method: 'sms', proof }, { ip });
  expect(response.statusCode).toBe(200);
}

describe('a sign-up flood solving every challenge', () => {
  // A +237 budget of 200 an hour (strangers 100, the challenge from 50, a network's share 2), new
  // users at 20 an hour who keep trying for 15 minutes; the full-size run is `npm run attack:signup`.
  const floodConfig = { ...CONFIG, otpCountryHourlyBudget: 200, rateLimitPerMinute: 1_000_000 };

  for (const attacker of ['ipv4', 'ipv6'] as const) {
    it(`from ${attacker === 'ipv4' ? '13 IPv4 addresses' : 'one IPv6 /56'}: at least 90 % of new users get their code`, async () => {
      const t = await createOtpApp({ config: floodConfig });
      try {
        const send = async (body: Record<string, unknown>, ip: string): Promise<Answer> => {
          const response = await generate(t, body, { ip });
          return { status: response.statusCode, body: response.json() };
        };
        const report = await simulateSignupFlood(send, t.clock, {
          attacker,
          legitPerHour: 20,
          patienceSeconds: 900,
          hours: 1.25,
          tickSeconds: 150,
        });
        expect(report.legitTried).toBeGreaterThanOrEqual(20);
        expect(report.attackerRequests).toBeGreaterThan(200);
        expect(report.legitServed / report.legitTried).toBeGreaterThanOrEqual(0.9);
      } finally {
        await t.close();
      }
    }, 120_000);
  }
});
