// deploy/systemd's units: each runs what `npm start` runs after its build (the same Node options),
// with its role set by the unit and every other setting from deploy/pronostics.env, DATA_DIR being
// the state directory systemd makes; and systemd itself finds nothing to say about them.
import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const units = {
  api: read('deploy/systemd/pronostics-api@.service'),
  worker: read('deploy/systemd/pronostics-worker.service'),
};
const values = (unit: string, key: string) =>
  [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((match) => match[1] as string);

function systemdAnalyze(): string | undefined {
  try {
    execFileSync('systemd-analyze', ['--version'], { stdio: 'ignore' });
    return 'systemd-analyze';
  } catch {
    return undefined;
  }
}

describe('deploy/systemd units', () => {
  it("run npm start's command without its build, with its Node options", () => {
    const start = JSON.parse(read('package.json')).scripts.start as string;
    expect(start).toMatch(/^node /);
    for (const unit of Object.values(units)) {
      expect(values(unit, 'ExecStart')).toEqual([start.replace(/^node /, '/usr/bin/node ')]);
    }
  });

  it('set the role (and the api its port, the instance name); everything else from the environment file', () => {
    expect(values(units.api, 'Environment')).toEqual(['ROLE=api', 'PORT=%i']);
    expect(values(units.worker, 'Environment')).toEqual(['ROLE=worker']);
    const env = read('deploy/pronostics.env');
    for (const unit of Object.values(units)) {
      expect(values(unit, 'EnvironmentFile')).toEqual(['/etc/pronostics/pronostics.env']);
      const [state] = values(unit, 'StateDirectory');
      expect(env).toMatch(new RegExp(`^DATA_DIR=/var/lib/${state}$`, 'm'));
    }
  });

  it('carry the hardening a reviewer expects, and not MemoryDenyWriteExecute (V8 needs it)', () => {
    const expected: Record<string, string> = {
      UMask: '0077',
      CapabilityBoundingSet: '',
      NoNewPrivileges: 'yes',
      PrivateTmp: 'yes',
      PrivateDevices: 'yes',
      ProtectSystem: 'strict',
      ProtectHome: 'yes',
      ProtectKernelTunables: 'yes',
      ProtectKernelModules: 'yes',
      ProtectKernelLogs: 'yes',
      ProtectControlGroups: 'yes',
      ProtectClock: 'yes',
      ProtectHostname: 'yes',
      RestrictAddressFamilies: 'AF_UNIX AF_INET AF_INET6',
      RestrictNamespaces: 'yes',
      RestrictSUIDSGID: 'yes',
      LockPersonality: 'yes',
      SystemCallArchitectures: 'native',
      SystemCallFilter: '@system-service',
    };
    for (const unit of Object.values(units)) {
      for (const [key, value] of Object.entries(expected)) expect(values(unit, key), key).toEqual([value]);
      expect(values(unit, 'MemoryDenyWriteExecute')).toEqual([]);
    }
  });

  it.skipIf(!systemdAnalyze())('pass `systemd-analyze verify` without a warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pronostics-units-'));
    try {
      copyFileSync(
        new URL('../../deploy/systemd/pronostics-worker.service', import.meta.url),
        join(dir, 'pronostics-worker.service'),
      );
      // A template is verified as one of its instances.
      copyFileSync(
        new URL('../../deploy/systemd/pronostics-api@.service', import.meta.url),
        join(dir, 'pronostics-api@3001.service'),
      );
      const { stdout, stderr } = await promisify(execFile)('systemd-analyze', [
        'verify',
        '--man=no',
        join(dir, 'pronostics-worker.service'),
        join(dir, 'pronostics-api@3001.service'),
      ]);
      expect(stdout + stderr).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
