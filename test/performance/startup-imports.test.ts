// A process carries only what its configuration uses: sharp (libvips), the AWS SDK and the Redis
// client are loaded when an avatar is first encoded, S3 is configured, or REDIS_URL is set, not at
// start (together ~45 MB resident; the service's memory target is in docs/performance.md). A child
// process builds the real app with a module-resolution hook that records what gets imported.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

const HEAVY = ['sharp', '@aws-sdk/client-s3', '@aws-sdk/lib-storage', 'ioredis'];

/**
 * Runs `script` in a fresh process whose module resolution is recorded, and returns the bare
 * packages imported before and after the script's `process.stderr.write('started\\n')`.
 */
function importsOf(script: string): { atStart: string[]; later: string[] } {
  const hook = `data:text/javascript,${encodeURIComponent(`
    export async function resolve(specifier, context, next) {
      if (/^(@[a-z0-9-]+\\/)?[a-z0-9.-]+$/.test(specifier)) process.stderr.write('import ' + specifier + '\\n');
      return next(specifier, context);
    }`)}`;
  const register = `data:text/javascript,${encodeURIComponent(
    `import { register } from 'node:module'; register(${JSON.stringify(hook)});`,
  )}`;
  const child = spawnSync(
    process.execPath,
    ['--import', register, '--import', 'tsx', '--input-type=module', '-e', script],
    { encoding: 'utf8', env: { ...process.env, LOG_LEVEL: 'silent' }, timeout: 110_000 },
  );
  expect(child.status, child.stderr).toBe(0);
  const [before = '', after = ''] = child.stderr.split(/^started$/m);
  const packages = (text: string) => [
    ...new Set([...text.matchAll(/^import (\S+)$/gm)].map((m) => m[1] as string)),
  ];
  return { atStart: packages(before), later: packages(after) };
}

describe('what a process loads', () => {
  it('builds the app without sharp, the AWS SDK or the Redis client; sharp comes with the first avatar', () => {
    const onePixelPng =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const { atStart, later } = importsOf(`
      const { buildApp } = await import('./src/app.ts');
      const { testConfig } = await import('./src/config.ts');
      const app = await buildApp({ config: testConfig() });
      await app.ready();
      process.stderr.write('started\\n');
      const { avatarWebp } = await import('./src/modules/users/avatar-image.ts');
      const { Readable } = await import('node:stream');
      const webp = await avatarWebp(Readable.from([Buffer.from('${onePixelPng}', 'base64')]));
      if (webp.subarray(8, 12).toString() !== 'WEBP') throw new Error('not a WebP');
      await app.close();`);
    expect(atStart).toContain('fastify');
    for (const name of HEAVY) expect(atStart, name).not.toContain(name);
    // The hook does see a package imported late: the first avatar brings sharp in.
    expect(later).toContain('sharp');
  }, 120_000);
});
