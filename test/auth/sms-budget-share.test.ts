// The share of each SMS budget kept for returning numbers (OTP_RETURNING_SHARE_PERCENT), and the
// reservation of each send before it goes out. The attack: strangers on 25 IPv6 networks (each a
// /48 of its own) ask codes for 500 valid numbers that never signed in, solving every sign-up
// challenge (decision 0104); they spend less than the newcomers' part of the +237 budget, and the
// owner of an account, who verified a code before, still signs in.
import { describe, expect, it } from 'vitest';
import { createOtpApp, generate, generateSolving, mobilePhone, requestCode, verify } from './helpers.js';

const BUDGET_MESSAGE = 'L’envoi de codes est momentanément limité. Réessayez plus tard.';
const NETWORK_MESSAGE =
  'Trop de nouvelles inscriptions depuis votre réseau en ce moment. Réessayez plus tard.';

describe('the share of the SMS budgets kept for returning numbers', () => {
  it('500 new numbers from 25 networks spend less than half the budget; the owner still signs in', async () => {
    const t = await createOtpApp({
      config: {
        otpCountryHourlyBudget: 100,
        otpGlobalHourlyBudget: 1000,
        otpReturningSharePercent: 50,
        signupChallengeCost: 1,
      },
    });
    try {
      const owner = mobilePhone();
      const ownerIp = '203.0.113.7';
      const first = await requestCode(t, owner, { ip: ownerIp });
      expect((await verify(t, { phone: owner, code: first }, { ip: ownerIp })).statusCode).toBe(200);
      t.clock.advanceSeconds(120);

      const answers: number[] = [];
      for (let network = 0; network < 25; network++) {
        for (let i = 0; i < 20; i++) {
          const response = await generateSolving(
            t,
            { phone: mobilePhone(), country: 'CM', method: 'sms' },
            { ip: `2001:db8:${network.toString(16)}:1::${(i + 1).toString(16)}` },
          );
          answers.push(response.statusCode);
          if (response.statusCode === 429 && answers.filter((s) => s === 429).length === 1) {
            expect(response.json()).toMatchObject({ message: NETWORK_MESSAGE });
            expect(response.json().data.retry_after).toBeGreaterThan(0);
          }
        }
      }
      // The owner's first code (a newcomer's then) and the first network's 20 and the second's 4
      // bring the newcomers' half (50) to 25, half used: from then on each network has a share of 1
      // (2 % of 50), which the second has passed; the 23 others get one code each, with a proof.
      expect(answers.filter((s) => s === 200)).toHaveLength(47);
      expect(answers.filter((s) => s === 429)).toHaveLength(453);
      expect(t.messenger.sent).toHaveLength(48);

      // During the attack, the returning owner gets a code (no challenge) and signs in; a new
      // number on a network of its own gets the last of the newcomers' half, and the next waits.
      const again = await requestCode(t, owner, { ip: ownerIp });
      expect((await verify(t, { phone: owner, code: again }, { ip: ownerIp })).statusCode).toBe(200);
      const newcomer = { country: 'CM', method: 'sms' };
      expect(
        (await generateSolving(t, { ...newcomer, phone: mobilePhone() }, { ip: '192.0.2.9' })).statusCode,
      ).toBe(200);
      const stranger = await generateSolving(t, { ...newcomer, phone: mobilePhone() }, { ip: '192.0.2.10' });
      expect(stranger.statusCode).toBe(429);
      expect(stranger.json()).toMatchObject({ message: BUDGET_MESSAGE });
      expect(stranger.headers['retry-after']).toBeDefined();
    } finally {
      await t.close();
    }
    // 500 sign-in requests through the whole stack: a volume test, not a timed one; a loaded machine needs the room.
  }, 90_000);

  it('reserves each send before it goes out: slow sends in flight never overrun the budget', async () => {
    const t = await createOtpApp({
      config: {
        otpCountryHourlyBudget: 5,
        otpGlobalHourlyBudget: 1000,
        otpReturningSharePercent: 0,
        signupChallengeCost: 1,
      },
    });
    try {
      const send = t.messenger.send.bind(t.messenger);
      // Every SMS takes a while to go out, so twenty requests are all in flight together.
      t.messenger.send = async (message) => {
        await new Promise((resolve) => setTimeout(resolve, 50));
        return send(message);
      };
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          generateSolving(
            t,
            { phone: mobilePhone(), country: 'CM', method: 'sms' },
            { ip: `198.51.100.${i + 1}` },
          ),
        ),
      );
      expect(answers.filter((response) => response.statusCode === 200)).toHaveLength(5);
      expect(t.messenger.sent).toHaveLength(5);
    } finally {
      await t.close();
    }
  });

  it('a failed send gives its reservation back', async () => {
    const t = await createOtpApp({
      config: {
        otpCountryHourlyBudget: 2,
        otpGlobalHourlyBudget: 1000,
        otpReturningSharePercent: 0,
        signupChallengeCost: 1,
      },
    });
    try {
      const { providerFailure } = await import('./helpers.js');
      t.messenger.failNext(providerFailure(), providerFailure());
      for (let i = 0; i < 2; i++) {
        const failed = await generate(
          t,
          { phone: mobilePhone(), country: 'CM', method: 'sms' },
          { ip: `198.51.100.${i + 1}` },
        );
        expect(failed.statusCode).toBe(500);
      }
      for (let i = 0; i < 2; i++) {
        const sent = await generateSolving(
          t,
          { phone: mobilePhone(), country: 'CM', method: 'sms' },
          { ip: `198.51.100.${i + 10}` },
        );
        expect(sent.statusCode).toBe(200);
      }
    } finally {
      await t.close();
    }
  });
});
