// A CPU profile of the hot reads without a server or a load generator (issue 57): the app built
// on an in-memory PGlite as the tests build it, a few users seeded as the HTTP bench seeds them,
// then N requests of each read through `app.inject`, one after the other, each read's requests
// profiled on their own (`<dir>/<read>.cpuprofile`, the startup and seeding left out): what each
// request spends in our code, apart from sockets. About a minute; its timings are not a benchmark
// (`npm run bench:http` is).
//
//   nice -n 10 npx tsx bench/profile-inject.ts [requests] [dir]
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { HISTORY_FILTERS, seed } from './http/seed.js';

const requests = Number(process.argv[2] ?? 3000);
const dir = process.argv[3] ?? 'profiles';
mkdirSync(dir, { recursive: true });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
// A sample every 100 µs (the default, 1 ms, leaves a few thousand samples for a read).
await session.post('Profiler.setSamplingInterval', { interval: 100 });
const config = testConfig({ tokenCacheSeconds: 30, rateLimit: false });
const database = await openDatabase({ url: 'memory://' });
await database.migrate();
const seeded = await seed(database, {
  users: 20,
  perUser: 100,
  appSecret: config.appSecret,
  historyPerUser: 100,
  quiet: true,
});
const app = await buildApp({ config, database, logger: false, runLoops: false });
await app.ready();

const reads: Record<string, (i: number) => string> = {
  list: () => '/api/user/pronostics?page=1',
  detail: (i) =>
    `/api/user/pronostic/${seeded.pronosticIds[i % 20]![i % seeded.pronosticIds[i % 20]!.length]}`,
  history: (i) => `/api/user/wallet/operations?${HISTORY_FILTERS[i % HISTORY_FILTERS.length]}&page=1`,
};
for (const [name, path] of Object.entries(reads)) {
  // A tenth of the requests first, unprofiled: prepared statements and caches warm.
  for (let i = 0; i < requests / 10; i++) {
    await app.inject({ url: path(i), headers: { authorization: `Bearer ${seeded.tokens[i % 20]}` } });
  }
  await session.post('Profiler.start');
  const started = performance.now();
  for (let i = 0; i < requests; i++) {
    const response = await app.inject({
      method: 'GET',
      url: path(i),
      headers: { authorization: `Bearer ${seeded.tokens[i % 20]}` },
    });
    if (response.statusCode !== 200) throw new Error(`${name}: ${response.statusCode} ${response.body}`);
  }
  const ms = (performance.now() - started) / requests;
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(join(dir, `${name}.cpuprofile`), JSON.stringify(profile));
  console.log(`${name}: ${requests} requests, ${ms.toFixed(3)} ms each (loaded machine: not a figure)`);
}
await app.close();
await database.close();
