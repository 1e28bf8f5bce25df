import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { clientNetwork } from '../../src/lib/network.js';
import { createTestDatabase, type TestDatabase } from '../helpers.js';
import {
  codeRows,
  createOtpApp,
  generate,
  mobilePhone,
  type OtpTestApp,
  otherCode,
  providerFailure,
  requestCode,
  verify,
} from './helpers.js';

const sms = (phone: string) => ({ phone, country: 'CM', method: 'sms' });

function expect429(response: Awaited<ReturnType<typeof generate>>, retryAfter: number, message?: string) {
  expect(response.statusCode).toBe(429);
  expect(response.headers['retry-after']).toBe(String(retryAfter));
  expect(response.json()).toEqual({
    user: null,
    message: message ?? expect.any(String),
    data: { retry_after: retryAfter },
  });
}

describe('generate limits', () => {
  let t: OtpTestApp;
  beforeAll(async () => {
    t = await createOtpApp();
  });
  afterAll(() => t.close());
  // Each test an hour later, and from its own address, so the windows of one do not reach the next.
  let ip = 0;
  const from = () => `198.51.100.${++ip}`;
  afterEach(() => t.clock.advanceSeconds(3601));

  it('a resend cooldown per phone: 429 with the seconds left, then 200', async () => {
    const phone = mobilePhone();
    const address = from();
    expect((await generate(t, sms(phone), { ip: address })).statusCode).toBe(200);
    t.clock.advanceSeconds(10);
    expect429(
      await generate(t, sms(phone), { ip: address }),
      50,
      'Veuillez patienter avant de demander un nouveau code.',
    );
    // Another address, same phone: the cooldown belongs to the phone.
    expect429(await generate(t, sms(phone), { ip: from() }), 50);
    t.clock.advanceSeconds(49);
    expect429(await generate(t, sms(phone), { ip: address }), 1);
    t.clock.advanceSeconds(1);
    expect((await generate(t, sms(phone), { ip: address })).statusCode).toBe(200);
  });

  it('the cooldown keys on the normalized phone', async () => {
    const address = from();
    expect((await generate(t, sms('+237 699 11 22 33'), { ip: address })).statusCode).toBe(200);
    expect((await generate(t, sms('+237699112233'), { ip: address })).statusCode).toBe(429);
  });

  it('at most 5 delivered codes per phone and client network in a rolling hour', async () => {
    const phone = mobilePhone();
    const address = from();
    const start = t.clock.now().getTime();
    for (let i = 0; i < 5; i++) {
      expect((await generate(t, sms(phone), { ip: address })).statusCode).toBe(200);
      t.clock.advanceSeconds(60);
    }
    // Five codes at +0, +60 … +240 s; now +300 s: the first leaves the window at +3600 s.
    expect429(
      await generate(t, sms(phone), { ip: address }),
      3300,
      'Trop de codes demandés. Réessayez plus tard.',
    );
    t.clock.set(new Date(start + 3599_000));
    expect429(await generate(t, sms(phone), { ip: address }), 1);
    t.clock.set(new Date(start + 3600_000));
    expect((await generate(t, sms(phone), { ip: address })).statusCode).toBe(200);
  });

  it('a stranger who uses up 5 codes from their network leaves the owner theirs', async () => {
    const phone = mobilePhone();
    const stranger = from();
    for (let i = 0; i < 5; i++) {
      expect((await generate(t, sms(phone), { ip: stranger })).statusCode).toBe(200);
      t.clock.advanceSeconds(60);
    }
    expect((await generate(t, sms(phone), { ip: stranger })).statusCode).toBe(429);
    // The same /64 is the same network for an IPv6 stranger too (clientNetwork), so only the owner's
    // own network is fresh.
    const owner = from();
    const code = await requestCode(t, phone, { ip: owner });
    expect((await verify(t, { phone, code }, { ip: owner })).statusCode).toBe(200);
  });

  it('at most 10 delivered codes per phone from all networks in a rolling hour', async () => {
    const phone = mobilePhone();
    const start = t.clock.now().getTime();
    for (let i = 0; i < 10; i++) {
      expect((await generate(t, sms(phone), { ip: from() })).statusCode).toBe(200);
      t.clock.advanceSeconds(60);
    }
    // Ten codes at +0 … +540 s, each from a fresh network; now +600 s.
    expect429(
      await generate(t, sms(phone), { ip: from() }),
      3000,
      'Trop de codes demandés. Réessayez plus tard.',
    );
    t.clock.set(new Date(start + 3600_000));
    expect((await generate(t, sms(phone), { ip: from() })).statusCode).toBe(200);
  });

  it('failed sends do not count toward the hourly cap', async () => {
    const phone = mobilePhone();
    const address = from();
    for (let i = 0; i < 4; i++) {
      await requestCode(t, phone, { ip: address });
      t.clock.advanceSeconds(60);
    }
    for (let i = 0; i < 3; i++) {
      t.messenger.failNext(providerFailure());
      expect((await generate(t, sms(phone), { ip: address })).statusCode).toBe(500);
    }
    expect((await generate(t, sms(phone), { ip: address })).statusCode).toBe(200);
    expect(await codeRows(t, phone)).toHaveLength(5);
  });

  it('at most 20 delivered codes per client IP in a rolling hour', async () => {
    const address = from();
    for (let i = 0; i < 20; i++) {
      expect((await generate(t, sms(mobilePhone()), { ip: address })).statusCode).toBe(200);
    }
    t.clock.advanceSeconds(100);
    expect429(await generate(t, sms(mobilePhone()), { ip: address }), 3500);
    // X-Forwarded-For is not believed without TRUST_PROXY.
    const spoofed = await generate(t, sms(mobilePhone()), {
      ip: address,
      headers: { 'x-forwarded-for': '192.0.2.77' },
    });
    expect(spoofed.statusCode).toBe(429);
    // Another client is not affected.
    expect((await generate(t, sms(mobilePhone()), { ip: from() })).statusCode).toBe(200);
  });

  it('the per-IP cap counts an IPv6 client by its /64', async () => {
    for (let i = 0; i < 20; i++) {
      const address = `2001:db8:aa:bb::${(i + 1).toString(16)}`;
      expect((await generate(t, sms(mobilePhone()), { ip: address })).statusCode).toBe(200);
    }
    expect((await generate(t, sms(mobilePhone()), { ip: '2001:db8:aa:bb:ffff::1' })).statusCode).toBe(429);
    expect((await generate(t, sms(mobilePhone()), { ip: '2001:db8:aa:cc::1' })).statusCode).toBe(200);
  });

  it('simultaneous requests for one phone send one code', async () => {
    const phone = mobilePhone();
    const before = t.messenger.sent.length;
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => generate(t, sms(phone), { ip: from() })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429, 429, 429, 429]);
    expect(t.messenger.sent.length - before).toBe(1);
  });

  it('simultaneous requests from one IP cannot send past the cap', async () => {
    const address = from();
    const before = t.messenger.sent.length;
    const answers = await Promise.all(
      Array.from({ length: 26 }, () => generate(t, sms(mobilePhone()), { ip: address })),
    );
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(20);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(6);
    expect(t.messenger.sent.length - before).toBe(20);
  });
});

describe('limits are counted in the database, shared by every API process', () => {
  let database: TestDatabase;
  let a: OtpTestApp;
  let b: OtpTestApp;
  beforeAll(async () => {
    database = await createTestDatabase();
    a = await createOtpApp({ database });
    b = await createOtpApp({ database, clock: a.clock });
  });
  afterAll(async () => {
    await a.close();
    await b.close();
    await database.drop();
  });

  it('a code sent by one process starts the cooldown in another, and verifies there', async () => {
    const phone = mobilePhone();
    const code = await requestCode(a, phone);
    expect((await generate(b, sms(phone))).statusCode).toBe(429);
    expect((await verify(b, { phone, code })).statusCode).toBe(200);
  });
});

describe('verify: at most 30 tries per client IP in 10 minutes', () => {
  let t: OtpTestApp;
  beforeAll(async () => {
    t = await createOtpApp();
  });
  afterAll(() => t.close());

  it('the 31st try is a 429 without errors key; other clients go on; the window ends', async () => {
    const phone = mobilePhone();
    for (let i = 0; i < 30; i++) {
      expect((await verify(t, { phone, code: '000000' }, { ip: '203.0.113.5' })).statusCode).toBe(400);
    }
    t.clock.advanceSeconds(120);
    const limited = await verify(t, { phone, code: '000000' }, { ip: '203.0.113.5' });
    expect429(limited, 480);
    // Malformed requests count too: the limit is on tries, whatever they hold.
    expect((await verify(t, {}, { ip: '203.0.113.5' })).statusCode).toBe(429);
    expect((await verify(t, { phone, code: '000000' }, { ip: '203.0.113.6' })).statusCode).toBe(400);
    t.clock.advanceSeconds(480);
    expect((await verify(t, { phone, code: '000000' }, { ip: '203.0.113.5' })).statusCode).toBe(400);
  });
});

describe('TRUST_PROXY', () => {
  let t: OtpTestApp;
  beforeAll(async () => {
    t = await createOtpApp({ config: { trustProxy: ['10.0.0.1'] } });
  });
  afterAll(() => t.close());

  it('TRUST_PROXY=1 (a hop count) believes the last X-Forwarded-For address', async () => {
    const hops = await createOtpApp({ config: { trustProxy: 1 } });
    try {
      const phone = mobilePhone();
      await requestCode(hops, phone, { ip: '10.0.0.9', headers: { 'x-forwarded-for': '192.0.2.30' } });
      expect((await codeRows(hops, phone))[0]?.ip).toBe('192.0.2.30');
    } finally {
      await hops.close();
    }
  });

  it('from a trusted proxy, the client is the X-Forwarded-For address', async () => {
    const proxy = '10.0.0.1';
    const viaProxy = (client: string) => ({ ip: proxy, headers: { 'x-forwarded-for': client } });
    const phone = mobilePhone();
    await requestCode(t, phone, viaProxy('192.0.2.10'));
    expect((await codeRows(t, phone))[0]?.ip).toBe('192.0.2.10');
    for (let i = 0; i < 19; i++) await requestCode(t, mobilePhone(), viaProxy('192.0.2.10'));
    expect((await generate(t, sms(mobilePhone()), viaProxy('192.0.2.10'))).statusCode).toBe(429);
    // Behind the same proxy, another client has its own budget.
    expect((await generate(t, sms(mobilePhone()), viaProxy('192.0.2.11'))).statusCode).toBe(200);
  });

  it('X-Forwarded-For values that are not addresses are one network, sharing one budget', async () => {
    const forged = (n: number) => ({ ip: '10.0.0.1', headers: { 'x-forwarded-for': `not-an-ip-${n}` } });
    for (let i = 0; i < 20; i++) await requestCode(t, mobilePhone(), forged(i));
    const next = await generate(t, sms(mobilePhone()), forged(99));
    expect(next.statusCode).toBe(429);
  });

  it('the verify limit follows the forwarded address too', async () => {
    const viaProxy = (client: string) => ({ ip: '10.0.0.1', headers: { 'x-forwarded-for': client } });
    for (let i = 0; i < 30; i++)
      await verify(t, { phone: mobilePhone(), code: '000000' }, viaProxy('192.0.2.20'));
    expect(
      (await verify(t, { phone: mobilePhone(), code: '000000' }, viaProxy('192.0.2.20'))).statusCode,
    ).toBe(429);
    expect(
      (await verify(t, { phone: mobilePhone(), code: '000000' }, viaProxy('192.0.2.21'))).statusCode,
    ).toBe(400);
  });

  it('from an address that is not a trusted proxy, the header is ignored', async () => {
    const phone = mobilePhone();
    await requestCode(t, phone, { ip: '10.0.0.2', headers: { 'x-forwarded-for': '192.0.2.10' } });
    expect((await codeRows(t, phone))[0]?.ip).toBe('10.0.0.2');
  });

  it('without TRUST_PROXY the header is ignored and the socket address counts', async () => {
    const direct = await createOtpApp();
    try {
      const phone = mobilePhone();
      await requestCode(direct, phone, { ip: '10.0.0.1', headers: { 'x-forwarded-for': '192.0.2.10' } });
      expect((await codeRows(direct, phone))[0]?.ip).toBe('10.0.0.1');
    } finally {
      await direct.close();
    }
  });
});

describe('RATE_LIMIT=off', () => {
  let t: OtpTestApp;
  beforeAll(async () => {
    t = await createOtpApp({ config: { rateLimit: false } });
  });
  afterAll(() => t.close());

  it('lifts the cooldown and the per-phone cap', async () => {
    const phone = mobilePhone();
    for (let i = 0; i < 8; i++) expect((await generate(t, sms(phone))).statusCode).toBe(200);
  });

  it('lifts the per-IP cap', async () => {
    for (let i = 0; i < 22; i++) expect((await generate(t, sms(mobilePhone()))).statusCode).toBe(200);
  });

  it('lifts the verify limit per IP', async () => {
    for (let i = 0; i < 35; i++) {
      expect((await verify(t, { phone: mobilePhone(), code: '000000' })).statusCode).toBe(400);
    }
  });

  it('never lifts the per-code attempt limit', async () => {
    const phone = mobilePhone();
    const code = await requestCode(t, phone);
    for (let i = 0; i < 5; i++)
      expect((await verify(t, { phone, code: otherCode(code) })).statusCode).toBe(400);
    expect((await verify(t, { phone, code })).statusCode).toBe(400);
  });
});

describe('clientNetwork', () => {
  it.each([
    ['203.0.113.5', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['2001:db8:aa:bb::1', '2001:db8:aa:bb::/64'],
    ['2001:0db8:00aa:00bb:1:2:3:4', '2001:db8:aa:bb::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('%s → %s', (ip, network) => {
    expect(clientNetwork(ip)).toBe(network);
  });
});
