// The secrets a development start generates once into DATA_DIR when they are not given (APP_SECRET,
// the VAPID key pair), read back from there after.
import { createECDH, type ECDH, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir } from '../lib/private-files.js';

/** DATA_DIR's generated TOMBSTONE_KEY (development): never copied into a backup. */
export const TOMBSTONE_KEY_FILE = 'tombstone-key';

/**
 * The secret APP_SECRET (or, with `name`, TOMBSTONE_KEY) would give, generated once into DATA_DIR
 * (0600) and read back from there after.
 */
export function generatedSecret(dataDir: string, name = 'app-secret'): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  ensurePrivateDir(dataDir);
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** DATA_DIR's generated VAPID key pair (development only), beside the generated APP_SECRET. */
export const VAPID_KEYS_FILE = 'webpush-vapid.json';

/** A VAPID key pair generated once into DATA_DIR and read back from there after. */
export function generatedVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = join(dataDir, VAPID_KEYS_FILE);
  if (existsSync(file))
    return JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  ensurePrivateDir(dataDir);
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = vapidKeyPair(ecdh);
  writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return keys;
}

/**
 * The VAPID pair in base64url. The private key is always 32 bytes: OpenSSL drops a leading zero
 * byte (one key in 256), and padding the text instead would shift every bit after it.
 */
export function vapidKeyPair(ecdh: ECDH): { publicKey: string; privateKey: string } {
  const scalar = ecdh.getPrivateKey();
  return {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: Buffer.concat([Buffer.alloc(32 - scalar.length), scalar]).toString('base64url'),
  };
}
