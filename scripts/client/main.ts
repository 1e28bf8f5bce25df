// `npm run client:generate`: builds the app on a throw-away database (its configuration as the
// tests have it, so the document does not depend on the machine) and writes the typed client's
// generated files.
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { CLIENT_DIR, clientFiles, writeClientFiles } from './generate.js';

const app = await buildApp({ config: testConfig(), logger: false, runLoops: false });
try {
  await app.ready();
  await writeClientFiles(await clientFiles(app));
  console.log(`client regenerated in ${CLIENT_DIR}`);
} finally {
  await app.close();
}
