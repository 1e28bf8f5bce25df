// `npm run lint:openapi`: the OpenAPI document the service serves, linted with Redocly's
// recommended rules (the engine of Redocly CLI). Generated clients (the mobile apps' Kotlin and
// Swift ones name their methods from `operationId`) and fuzzers rely on what it declares. Fails on
// any problem but the one recorded exception: the spec's own health path `/api/` ends with a slash.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { buildApp } from '../../src/app.js';
import { testConfig } from '../../src/config.js';
import { openDatabase } from '../../src/db/client.js';

/** Problems accepted on purpose, by rule and location (the spec binds the path). */
const EXCEPTIONS: { rule: string; pointer: string }[] = [
  { rule: 'no-path-trailing-slash', pointer: '#/paths/~1api~1' },
];

const database = await openDatabase({ url: 'memory://' });
await database.migrate();
const app = await buildApp({ config: testConfig(), database, logger: false, runLoops: false });
const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
await app.close();
await database.close();

const config = await createConfig({ extends: ['recommended'] });
const problems = await lintFromString({
  source: JSON.stringify(document, null, 2),
  absoluteRef: 'openapi.json',
  config,
});
const reported = problems.filter(
  (problem) =>
    !EXCEPTIONS.some(
      (exception) =>
        exception.rule === problem.ruleId &&
        problem.location.some((location) => location.pointer?.startsWith(exception.pointer)),
    ),
);
for (const problem of reported) {
  const where = problem.location[0]?.pointer ?? '';
  console.log(`${problem.severity}\t${problem.ruleId}\t${where}\t${problem.message}`);
}
const errors = reported.filter((problem) => problem.severity === 'error').length;
const warnings = reported.length - errors;
console.log(
  `openapi lint: ${errors} errors, ${warnings} warnings (${problems.length - reported.length} recorded exception)`,
);
process.exit(reported.length > 0 ? 1 : 0);
