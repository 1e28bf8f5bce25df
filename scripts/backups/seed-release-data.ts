// Seeds a small embedded database in DATA_DIR through the API, for the backup kept at each
// schema-changing release (test/data/backups/, docs/operations.md "Backups"): users signed in by
// code, credits granted, a sandbox pack purchase settled by its webhook, a referral, pronostics, a
// stored avatar. Then, with the service stopped: `DATA_DIR=… npm run cli -- backup <file>`.
//
//   DATA_DIR=/tmp/release-seed npx tsx scripts/backups/seed-release-data.ts
import sharp from 'sharp';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openConfiguredDatabase } from '../../src/db/open.js';
import type { Messenger } from '../../src/providers/messaging/index.js';

const config = { ...loadConfig(), paymentSandboxDelayMs: 0, rateLimit: false };
if (config.databaseUrl !== undefined) throw new Error('seed an embedded database: leave DATABASE_URL unset');
const codes = new Map<string, string>();
const messenger: Messenger = {
  async send(message) {
    codes.set(message.to, message.code);
  },
};
const database = await openConfiguredDatabase(config, 'service');
const app = await buildApp({ config, database, messenger, logger: false, runLoops: false });
await app.ready();

async function signIn(phone: string, remoteAddress: string) {
  const generated = await app.inject({
    method: 'POST',
    url: '/api/otp/generate',
    payload: { phone, country: 'CM', method: 'sms' },
    remoteAddress,
  });
  if (generated.statusCode !== 200) throw new Error(generated.body);
  const verified = await app.inject({
    method: 'POST',
    url: '/api/otp/verify',
    payload: { phone, code: codes.get(phone) },
    remoteAddress,
  });
  const { user, data } = verified.json() as { user: { id: number }; data: { token: string } };
  return { id: user.id, phone, headers: { authorization: `Bearer ${data.token}` } };
}

try {
  const godfather = await signIn('+237670100001', '203.0.113.1');
  const player = await signIn('+237670100002', '203.0.113.2');
  const account = await app.services.users.findById(player.id);
  await app.services.wallet.grantCredits(account!, 10, 'Crédits de bienvenue (jeu de données)');
  const code = (
    await app.inject({ method: 'GET', url: '/api/user/profile', headers: godfather.headers })
  ).json().user.affiliation_code as string;
  await app.inject({
    method: 'POST',
    url: '/api/user/profile/apply-affiliation',
    headers: player.headers,
    payload: { affiliation_code: code },
  });
  const paid = await app.inject({
    method: 'POST',
    url: '/api/user/wallet/checkout',
    headers: player.headers,
    payload: { pack_id: 2, phone: player.phone },
  });
  if (paid.statusCode !== 201) throw new Error(paid.body);
  while ((await app.runtime.sandboxWebhooks!.deliverDue()) > 0);
  for (const [home, away] of [
    ['Arsenal', 'Chelsea'],
    ['Lyon', 'Marseille'],
  ]) {
    const created = await app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: player.headers,
      payload: { type_id: 1, teams_details: { home, away } },
    });
    if (created.statusCode !== 201) throw new Error(created.body);
  }
  const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#2a7' } })
    .png()
    .toBuffer();
  const boundary = 'seed-boundary';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const avatar = await app.inject({
    method: 'POST',
    url: '/api/user/profile/avatar',
    headers: { ...player.headers, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  if (avatar.statusCode !== 200) throw new Error(avatar.body);
  console.log(
    `seeded ${config.dataDir}: users ${godfather.id} and ${player.id}, avatar ${avatar.json().data.avatar}`,
  );
} finally {
  await app.close();
  await database.close();
}
