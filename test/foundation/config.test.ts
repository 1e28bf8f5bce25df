import { spawnSync } from 'node:child_process';
import { createECDH } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vapidKeyPair } from '../../src/config/generated.js';
import { ConfigError, configWarnings, loadConfig } from '../../src/config.js';

const secret = 'x'.repeat(40);
const load = (env: Record<string, string>) => loadConfig({ APP_SECRET: secret, ...env }, '/srv/app');

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = load({});
    expect(config).toMatchObject({
      appEnv: 'development',
      port: 3000,
      host: '127.0.0.1',
      dataDir: '/srv/app/data',
      databaseUrl: undefined,
      tokenIdleTtlSeconds: 600,
      otpTtlSeconds: 600,
      otpMaxAttempts: 5,
      otpResendCooldownSeconds: 60,
      welcomeCredits: 0,
      withdrawMin: 5000,
      referralCommissionPercent: 10,
      paymentSandboxDelayMs: 2000,
      messagingDriver: 'log',
      whatsappDriver: 'log',
      paymentsDriver: 'sandbox',
      aiDriver: 'builtin',
      rateLimit: true,
      trustProxy: false,
      role: 'all',
      appName: 'Pronostics',
    });
  });

  it.each([
    [{ PORT: 'abc' }, /^PORT="abc" is invalid: expected a whole number from 0 to 65535$/],
    [{ PORT: '70000' }, /^PORT=/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL=.*postgres/],
    [{ MESSAGING_DRIVER: 'pigeon' }, /^MESSAGING_DRIVER="pigeon" is invalid: expected one of log, twilio$/],
    [{ WHATSAPP_DRIVER: 'fax' }, /^WHATSAPP_DRIVER=/],
    [{ RATE_LIMIT: 'maybe' }, /^RATE_LIMIT="maybe" is invalid: expected on or off$/],
    [{ TRUST_PROXY: 'yes please' }, /^TRUST_PROXY=/],
    [{ OTP_TTL_SECONDS: '5' }, /^OTP_TTL_SECONDS=/],
    [{ APP_ENV: 'staging' }, /^APP_ENV=/],
    [{ AI_DRIVER: 'openai' }, /AI_BASE_URL is required when AI_DRIVER=openai/],
    [{ CORS_ORIGINS: 'not an origin' }, /^CORS_ORIGINS=/],
    [{ ROLE: 'worker' }, /ROLE=worker needs DATABASE_URL=postgres/],
    [{ MESSAGING_DRIVER: 'twilio' }, /TWILIO_ACCOUNT_SID is required/],
    [{ WHATSAPP_DRIVER: 'whatsapp-cloud' }, /WHATSAPP_CLOUD_TOKEN is required/],
  ])('%o stops the start with one line naming the variable', (env, expected) => {
    expect(() => load(env)).toThrow(ConfigError);
    try {
      load(env);
    } catch (error) {
      expect((error as Error).message).toMatch(expected);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('production refuses the development drivers and a missing APP_SECRET', () => {
    expect(() => loadConfig({ APP_ENV: 'production', APP_SECRET: secret }, '/srv')).toThrow(
      /MESSAGING_DRIVER/,
    );
    expect(() =>
      loadConfig(
        {
          APP_ENV: 'production',
          APP_SECRET: secret,
          MESSAGING_DRIVER: 'twilio',
          TWILIO_ACCOUNT_SID: 'AC1',
          TWILIO_AUTH_TOKEN: 't',
          TWILIO_SMS_FROM: 'PRONOS',
          TWILIO_WHATSAPP_FROM: '+15550001',
          TWILIO_WHATSAPP_CONTENT_SID: 'HX1',
        },
        '/srv',
      ),
    ).toThrow(/PAYMENTS_DRIVER=sandbox/);
    const dataDir = mkdtempSync(join(tmpdir(), 'cfg-'));
    expect(() => loadConfig({ APP_ENV: 'production', DATA_DIR: dataDir }, '/srv')).toThrow(/APP_SECRET/);
  });

  it('production refuses NotchPay test keys with one line; live keys pass', () => {
    const production = {
      APP_ENV: 'production',
      APP_SECRET: secret,
      TOMBSTONE_KEY: secret,
      MESSAGING_DRIVER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 't',
      TWILIO_SMS_FROM: 'PRONOS',
      TWILIO_WHATSAPP_FROM: '+15550001',
      TWILIO_WHATSAPP_CONTENT_SID: 'HX1',
      PAYMENTS_DRIVER: 'notchpay',
      NOTCHPAY_WEBHOOK_SECRET: 'hsk_live_x',
    };
    for (const [publicKey, privateKey, variable] of [
      ['pk_test_abc123', 'sk_live_abc', 'NOTCHPAY_PUBLIC_KEY'],
      ['pk_live_abc123', 'sk_test.abc', 'NOTCHPAY_PRIVATE_KEY'],
      ['pk.test_abc', 'sk_live_abc', 'NOTCHPAY_PUBLIC_KEY'],
    ] as const) {
      expect(() =>
        loadConfig(
          { ...production, NOTCHPAY_PUBLIC_KEY: publicKey, NOTCHPAY_PRIVATE_KEY: privateKey },
          '/srv',
        ),
      ).toThrow(`${variable} is a NotchPay test key: APP_ENV=production needs live keys`);
    }
    const live = loadConfig(
      { ...production, NOTCHPAY_PUBLIC_KEY: 'pk_live_abc123', NOTCHPAY_PRIVATE_KEY: 'sk_live_contest' },
      '/srv',
    );
    expect(live.paymentsDriver).toBe('notchpay');
    // Outside production the test keys are what a developer uses.
    expect(
      loadConfig(
        {
          PAYMENTS_DRIVER: 'notchpay',
          NOTCHPAY_PUBLIC_KEY: 'pk_test_1',
          NOTCHPAY_PRIVATE_KEY: 'sk_test_1',
          NOTCHPAY_WEBHOOK_SECRET: 'h',
        },
        '/srv',
      ).paymentsDriver,
    ).toBe('notchpay');
  });

  it('warns when the sandbox payments driver runs beside a real messaging driver', () => {
    const twilio = {
      MESSAGING_DRIVER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 't',
      TWILIO_SMS_FROM: 'PRONOS',
      TWILIO_WHATSAPP_FROM: '+15550001',
      TWILIO_WHATSAPP_CONTENT_SID: 'HX1',
    };
    const [warning, ...others] = configWarnings(loadConfig(twilio, '/srv'));
    expect(others).toEqual([]);
    expect(warning).toMatch(/PAYMENTS_DRIVER=sandbox grants credits without payment/);
    expect(configWarnings(loadConfig({}, '/srv'))).toEqual([]);
  });

  it('the service says that warning at start', async () => {
    const { createTestApp } = await import('../helpers.js');
    const lines: string[] = [];
    const t = await createTestApp({
      config: { messagingDriver: 'twilio' },
      logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      await t.app.ready();
      const warnings = lines.map((line) => JSON.parse(line)).filter((entry) => entry.config_warning === true);
      expect(warnings).toHaveLength(1);
      expect(warnings[0].msg).toMatch(/anyone can buy credits for free/);
    } finally {
      await t.close();
    }
  });

  it('generates the secret once into DATA_DIR and keeps it', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cfg-'));
    const first = loadConfig({ DATA_DIR: dataDir }, '/srv');
    const second = loadConfig({ DATA_DIR: dataDir }, '/srv');
    expect(first.appSecret).toMatch(/^[0-9a-f]{64}$/);
    expect(second.appSecret).toBe(first.appSecret);
    expect(readFileSync(join(dataDir, 'app-secret'), 'utf8').trim()).toBe(first.appSecret);
  });

  it('writes a VAPID private key with a leading zero byte as all 32 bytes (one key in 256)', () => {
    const ecdh = createECDH('prime256v1');
    const scalar = Buffer.alloc(32, 7);
    scalar[0] = 0;
    ecdh.setPrivateKey(scalar);
    const pair = vapidKeyPair(ecdh);
    expect(Buffer.from(pair.privateKey, 'base64url')).toEqual(scalar);
    expect(() =>
      loadConfig(
        {
          DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-vapid-zero-')),
          WEBPUSH_VAPID_PUBLIC_KEY: pair.publicKey,
          WEBPUSH_VAPID_PRIVATE_KEY: pair.privateKey,
        },
        '/srv',
      ),
    ).not.toThrow();
  });

  it('generates a VAPID pair once into DATA_DIR in development, only when the start asks', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cfg-vapid-'));
    const quiet = loadConfig({ DATA_DIR: dataDir }, '/srv');
    expect(quiet.webpush.publicKey).toBeUndefined();
    expect(existsSync(join(dataDir, 'webpush-vapid.json'))).toBe(false);
    const first = loadConfig({ DATA_DIR: dataDir }, '/srv', { generateVapidKeys: true });
    const second = loadConfig({ DATA_DIR: dataDir }, '/srv', { generateVapidKeys: true });
    expect(first.webpush.publicKey).toMatch(/^B[A-Za-z0-9_-]{86}$/);
    expect(first.webpush.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(second.webpush).toEqual(first.webpush);
    expect(statSync(join(dataDir, 'webpush-vapid.json')).mode & 0o777).toBe(0o600);
    // The pair read back passes the start's own check: the public key is the private key's.
    expect(() =>
      loadConfig(
        {
          DATA_DIR: dataDir,
          WEBPUSH_VAPID_PUBLIC_KEY: first.webpush.publicKey!,
          WEBPUSH_VAPID_PRIVATE_KEY: first.webpush.privateKey!,
        },
        '/srv',
      ),
    ).not.toThrow();
    // Production never generates one: web push is off, and the start says so.
    const production = loadConfig(
      {
        APP_ENV: 'production',
        APP_SECRET: 'x'.repeat(40),
        TOMBSTONE_KEY: 'x'.repeat(40),
        DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-vapid-prod-')),
        MESSAGING_DRIVER: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC1',
        TWILIO_AUTH_TOKEN: 't',
        TWILIO_SMS_FROM: 'PRONOS',
        TWILIO_WHATSAPP_FROM: '+15550001',
        TWILIO_WHATSAPP_CONTENT_SID: 'HX1',
        PAYMENTS_DRIVER: 'notchpay',
        NOTCHPAY_PUBLIC_KEY: 'pk_live_1',
        NOTCHPAY_PRIVATE_KEY: 'sk_live_1',
        NOTCHPAY_WEBHOOK_SECRET: 'hsk_1',
      },
      '/srv',
      { generateVapidKeys: true },
    );
    expect(production.webpush.publicKey).toBeUndefined();
    expect(configWarnings(production)).toEqual([expect.stringMatching(/^Web push is off/)]);
  });

  it('production refuses RATE_LIMIT=off, with a line saying why', () => {
    const message = (() => {
      try {
        loadConfig({ APP_ENV: 'production', APP_SECRET: secret, RATE_LIMIT: 'off' }, '/srv');
      } catch (error) {
        return (error as Error).message;
      }
      return '';
    })();
    expect(message.split('\n')).toContain(
      'RATE_LIMIT=off is refused when APP_ENV=production: it lifts every SMS budget, the per-phone caps and the sign-up challenge',
    );
    expect(load({ RATE_LIMIT: 'off' }).rateLimit).toBe(false);
  });

  it('a start that refuses names every wrong setting at once, one line each', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cfg-'));
    let lines: string[] = [];
    try {
      loadConfig(
        { APP_ENV: 'production', DATA_DIR: dataDir, PORT: 'abc', BODY_LIMIT_BYTES: '1', RATE_LIMIT: 'off' },
        '/srv',
      );
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      lines = (error as Error).message.split('\n');
    }
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT="abc" is invalid/),
        expect.stringMatching(/^BODY_LIMIT_BYTES="1" is invalid/),
        expect.stringMatching(/^APP_SECRET is required/),
        expect.stringMatching(/^TOMBSTONE_KEY is required/),
        expect.stringMatching(/^RATE_LIMIT=off is refused/),
        expect.stringMatching(/MESSAGING_DRIVER/),
        expect.stringMatching(/PAYMENTS_DRIVER=sandbox/),
      ]),
    );
  });

  it('warns when TRUST_PROXY is set and HOST is not a loopback address', () => {
    const warned = (env: Record<string, string>) =>
      configWarnings(load(env)).filter((line) => line.startsWith('TRUST_PROXY is set'));
    expect(warned({ TRUST_PROXY: '1', HOST: '0.0.0.0' })).toEqual([
      expect.stringContaining('HOST=0.0.0.0 is not a loopback address'),
    ]);
    expect(warned({ TRUST_PROXY: '10.0.0.1', HOST: '192.0.2.4' })).toHaveLength(1);
    expect(warned({ TRUST_PROXY: '1', HOST: '127.0.0.1' })).toEqual([]);
    expect(warned({ TRUST_PROXY: '1', HOST: '::1' })).toEqual([]);
    expect(warned({ HOST: '0.0.0.0' })).toEqual([]);
  });

  it('reads TRUST_PROXY as off, a hop count or addresses', () => {
    expect(load({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(load({ TRUST_PROXY: '10.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual(['10.0.0.1', '10.0.0.0/8']);
  });

  it('the server process stops with that one line on stderr and exit code 1', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: 'abc' },
      encoding: 'utf8',
      timeout: 55_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'Configuration error: PORT="abc" is invalid: expected a whole number from 0 to 65535',
    ]);
  }, 60_000);
});
