// package.json's "engines" is a promise: every installed package must run on the oldest Node it
// names (npm warns EBADENGINE otherwise), and the overrides that keep it true must keep the API
// their dependants call.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const project = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
};

/** Every package.json under node_modules (scoped and nested ones included). */
function installedPackages(dir: string, found: { name: string; engines?: { node?: string } }[] = []) {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (entry.startsWith('@')) {
      installedPackages(path, found);
      continue;
    }
    try {
      found.push(JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')));
    } catch {
      continue;
    }
    installedPackages(join(path, 'node_modules'), found);
  }
  return found;
}

describe('supported Node versions', () => {
  // CI runs this file on each supported major, so each of them is checked as the running one.
  it.each([
    ['the oldest Node that package.json claims', semver.minVersion(project.engines.node)!.version],
    ['the running Node', process.versions.node],
  ])('every installed package accepts %s (%s)', (_which, version) => {
    expect(semver.satisfies(version, project.engines.node)).toBe(true);
    const refusing = installedPackages(join(root, 'node_modules'))
      .filter((pkg) => pkg.engines?.node && semver.validRange(pkg.engines.node))
      .filter((pkg) => !semver.satisfies(version, pkg.engines!.node!))
      .map((pkg) => `${pkg.name} wants node ${pkg.engines!.node}`);
    expect(refusing).toEqual([]);
  });

  it('the overridden cookie and content-disposition keep the functions Fastify’s packages call', () => {
    const require = createRequire(join(root, 'node_modules', 'light-my-request', 'index.js'));
    const { stringifySetCookie } = require('cookie') as {
      stringifySetCookie(cookie: { name: string; value: string }): string;
    };
    expect(stringifySetCookie({ name: 'a', value: 'b' })).toBe('a=b');
    const staticRequire = createRequire(join(root, 'node_modules', '@fastify', 'static', 'index.js'));
    const { create } = staticRequire('content-disposition') as { create(name: string): string };
    expect(create('résultats.csv')).toMatch(/^attachment; filename=/);
  });
});
