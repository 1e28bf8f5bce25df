// deploy/pronostics.env, the environment file the systemd units read, lists every variable the
// service reads (set, or commented out at its default) and no other; its set lines pass the
// production start's checks; and it leaves ROLE and PORT to the units, whose own lines it would
// override.
import { createECDH, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const template = readFileSync(new URL('../../deploy/pronostics.env', import.meta.url), 'utf8');

/** Every `NAME=value` line, set or commented out: [name, value, set]. */
function templateLines(text: string): [string, string, boolean][] {
  return text.split('\n').flatMap((line) => {
    const match = /^(#?)([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    return match ? [[match[2] as string, match[3] as string, match[1] === '']] : [];
  });
}

/** A VAPID key pair, as `npx web-push generate-vapid-keys` makes one. */
const vapid = (() => {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: ecdh.getPrivateKey().toString('base64url').padStart(43, 'A'),
  };
})();

/** The variables loadConfig reads, whatever their values. */
function variablesRead(): string[] {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string>>(
    // Given, so that reading the variables generates nothing into a DATA_DIR.
    {
      APP_SECRET: 'x'.repeat(40),
      WEBPUSH_VAPID_PUBLIC_KEY: vapid.publicKey,
      WEBPUSH_VAPID_PRIVATE_KEY: vapid.privateKey,
    },
    {
      get(target, name) {
        if (typeof name === 'string') read.add(name);
        return typeof name === 'string' ? target[name] : undefined;
      },
    },
  );
  loadConfig(env, '/srv/pronostics');
  return [...read].sort();
}

/** The variables of `read` that `text` does not list. */
function missingFrom(text: string, read: string[]): string[] {
  const listed = new Set(templateLines(text).map(([name]) => name));
  return read.filter((name) => !listed.has(name));
}

const scratch = mkdtempSync(join(tmpdir(), 'pronostics-env-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('deploy/pronostics.env', () => {
  it('lists every variable src/config.ts reads, each once, and no other', () => {
    const read = variablesRead();
    expect(read.length).toBeGreaterThan(60);
    expect(missingFrom(template, read)).toEqual([]);
    const names = templateLines(template).map(([name]) => name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect(names.filter((name) => !read.includes(name))).toEqual([]);
  });

  it('fails when one is missing (the check itself)', () => {
    const read = variablesRead();
    const without = template
      .split('\n')
      .filter((line) => !/^#?EVENTS_HEARTBEAT_SECONDS=/.test(line))
      .join('\n');
    expect(missingFrom(without, read)).toEqual(['EVENTS_HEARTBEAT_SECONDS']);
  });

  it('leaves ROLE and PORT to the systemd units', () => {
    const set = templateLines(template)
      .filter(([, , isSet]) => isSet)
      .map(([name]) => name);
    expect(set).not.toContain('ROLE');
    expect(set).not.toContain('PORT');
  });

  it('its set lines start a production api process (placeholders as they stand, a key file for FCM, a VAPID pair)', () => {
    const key = generateKeyPairSync('rsa', { modulusLength: 1024 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const keyFile = join(scratch, 'fcm.json');
    writeFileSync(
      keyFile,
      JSON.stringify({ project_id: 'p', client_email: 'push@p.iam.gserviceaccount.com', private_key: key }),
    );
    const env: Record<string, string> = { ROLE: 'api', PORT: '3001' };
    for (const [name, value, isSet] of templateLines(template)) if (isSet) env[name] = value;
    env.FCM_SERVICE_ACCOUNT = keyFile;
    env.WEBPUSH_VAPID_PUBLIC_KEY = vapid.publicKey;
    env.WEBPUSH_VAPID_PRIVATE_KEY = vapid.privateKey;
    env.DATA_DIR = scratch;
    const config = loadConfig(env, '/srv/pronostics');
    expect(config.appEnv).toBe('production');
    expect(config.role).toBe('api');
    expect(config.trustProxy).toBe(1);
    expect(config.redisUrl).toBe('redis://127.0.0.1:6379');
    expect(config.webpush.driver).toBe('vapid');
  });
});
