// Every forbidden rule of .dependency-cruiser.cjs catches what it says it catches: for each rule, a
// planted violation (a tiny tree written to a temp dir, its paths reading `src/…` like the real ones)
// must be reported under that rule's name and no other, and its clean twin must report nothing. The
// list of rules is read from the configuration, so a rule added without a plant fails here.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruiseSources, forbiddenRules, ROOT } from '../../scripts/architecture/cruise.js';

/**
 * A planted tree: each file (a path under `src/`) and what it imports, `'src/…'` at runtime or
 * `'type src/…'` type-only. Every file named, as importer or imported, is written.
 */
type Tree = Record<string, string[]>;
interface Plant {
  violation: Tree;
  clean: Tree;
}

const plants: Record<string, Plant> = {
  'no-circular': {
    violation: { 'src/lib/a.ts': ['src/lib/b.ts'], 'src/lib/b.ts': ['src/lib/a.ts'] },
    clean: { 'src/lib/a.ts': ['src/lib/b.ts'] },
  },
  'repository-of-another-module': {
    violation: { 'src/modules/wallet/service.ts': ['src/modules/users/repository.ts'] },
    clean: {
      'src/modules/wallet/service.ts': [
        'type src/modules/users/service.ts',
        'src/modules/wallet/repository.ts',
      ],
    },
  },
  'repository-outside-modules': {
    violation: { 'src/services.ts': ['src/modules/users/repository.ts'] },
    clean: { 'src/services.ts': ['src/modules/users/service.ts'] },
  },
  'routes-only-from-the-app': {
    violation: { 'src/services.ts': ['src/modules/users/routes.ts'] },
    clean: { 'src/app.ts': ['src/modules/users/routes.ts'] },
  },
  'no-http-below-routes': {
    violation: { 'src/modules/users/service.ts': ['src/plugins/app/auth.ts'] },
    clean: { 'src/modules/users/routes.ts': ['src/plugins/app/auth.ts'] },
  },

  'engine-is-pure': {
    violation: { 'src/engine/model.ts': ['src/lib/clock.ts'] },
    clean: { 'src/engine/model.ts': ['src/engine/types.ts', 'src/lib/allowed-values.ts', 'src/lib/time.ts'] },
  },
  'lib-is-shared-pieces': {
    violation: {
      'src/lib/clock.ts': ['src/providers/messaging/types.ts'],
      'src/lib/metrics-server.ts': ['type src/runtime/runtime.ts'],
    },
    clean: { 'src/lib/clock.ts': ['src/lib/time.ts'] },
  },
  'providers-know-no-modules': {
    violation: {
      'src/providers/payments/notchpay.ts': ['type src/modules/payments/service.ts'],
      'src/providers/push/index.ts': ['src/runtime/push-sender.ts'],
    },
    clean: { 'src/providers/payments/notchpay.ts': ['type src/providers/payments/types.ts'] },
  },
  'modules-know-no-loops': {
    violation: {
      'src/modules/football/analyst.ts': ['type src/runtime/analysis-worker.ts'],
      'src/modules/payments/service.ts': ['src/runtime/runtime.ts'],
      'src/modules/flags/service.ts': ['src/runtime/payment-poller.ts'],
    },
    clean: { 'src/modules/football/analyst.ts': ['type src/modules/football/engine.ts'] },
  },
  'loops-through-services': {
    violation: {
      'src/runtime/results-sync.ts': ['type src/modules/football/csv.ts'],
      'src/runtime/runtime.ts': ['src/modules/track-record/page.ts'],
      'src/runtime/settlement-loop.ts': ['src/modules/track-record/schemas.ts'],
    },
    clean: {
      'src/runtime/results-sync.ts': ['type src/modules/football/service.ts'],
      'src/runtime/runtime.ts': [
        'src/modules/pronostics/analyst.ts',
        'src/modules/pronostics/analysis-jobs.ts',
      ],
      'src/runtime/settlement-loop.ts': ['type src/modules/track-record/service.ts'],
    },
  },
  'config-knows-no-providers': {
    violation: {
      'src/config.ts': ['type src/providers/ai/openai.ts'],
      'src/config/push.ts': ['type src/providers/push/fcm.ts'],
    },
    clean: {
      'src/config.ts': ['src/lib/private-files.ts', 'src/config/push.ts'],
      'src/config/push.ts': ['src/lib/env-settings.ts', 'type src/config/process.ts'],
    },
  },
  'providers-read-config-types-only': {
    violation: { 'src/providers/messaging/twilio.ts': ['src/config.ts'] },
    clean: { 'src/providers/messaging/twilio.ts': ['type src/config.ts'] },
  },
  'lib-knows-no-config': {
    violation: { 'src/lib/log-options.ts': ['type src/config.ts'] },
    clean: { 'src/lib/log-options.ts': ['src/lib/time.ts'] },
  },
  'config-through-its-door': {
    violation: {
      'src/modules/auth/otp-service.ts': ['type src/config/sign-in.ts'],
      'src/db/open.ts': ['src/config/process.ts'],
    },
    clean: {
      'src/modules/auth/otp-service.ts': ['type src/config.ts'],
      'src/config.ts': ['src/config/process.ts'],
      'src/config/money.ts': ['type src/config/process.ts'],
    },
  },
  'db-knows-no-engine': {
    violation: { 'src/db/schema/pronostics.ts': ['type src/engine/types.ts'] },
    clean: { 'src/db/schema/pronostics.ts': ['src/db/schema/columns.ts'] },
  },
  'providers-know-no-db': {
    violation: { 'src/providers/messaging/types.ts': ['type src/db/schema/users.ts'] },
    clean: { 'src/providers/messaging/types.ts': ['src/lib/phone.ts'] },
  },
  'modules-skip-the-schema-barrel': {
    violation: { 'src/modules/users/service.ts': ['type src/db/schema/index.ts'] },
    clean: { 'src/modules/users/service.ts': ['type src/db/schema/users.ts'] },
  },
  'cli-through-services': {
    violation: {
      'src/cli/commands/users.ts': ['src/db/schema/users.ts'],
      'src/cli/commands/evaluate.ts': ['src/engine/model.ts', 'type src/modules/football/evaluation-data.ts'],
    },
    clean: {
      'src/cli/commands/users.ts': ['type src/cli/context.ts'],
      'src/cli/commands/evaluate.ts': [
        'src/modules/football/service.ts',
        'src/modules/football/evaluation.ts',
      ],
    },
  },
  // The layers (layerRules): nothing imports upwards, type-only imports included.
  'nothing-imports-a-process': {
    violation: {
      'src/modules/users/routes.ts': ['type src/app.ts'],
      'src/runtime/runtime.ts': ['type src/process.ts'],
      'src/lib/log-options.ts': ['src/cli/context.ts'],
      'src/plugins/app/auth.ts': ['type src/server.ts'],
      'src/services.ts': ['src/worker-process.ts'],
    },
    clean: {
      'src/server.ts': ['src/app.ts', 'src/worker-process.ts'],
      'src/app.ts': ['src/process.ts'],
      'src/worker-process.ts': ['src/process.ts'],
      'src/cli/context.ts': ['src/process.ts'],
    },
  },
  'container-knows-no-loops': {
    violation: { 'src/services.ts': ['type src/runtime/analysis-worker.ts'] },
    clean: {
      'src/services.ts': ['src/modules/users/service.ts'],
      'src/runtime/runtime.ts': ['type src/services.ts'],
    },
  },
  'modules-know-no-container': {
    violation: { 'src/modules/metrics/service.ts': ['type src/services.ts'] },
    clean: { 'src/modules/metrics/service.ts': ['type src/modules/pronostics/analysis-jobs.ts'] },
  },
  'plugins-know-no-loops': {
    violation: { 'src/plugins/app/metrics.ts': ['type src/runtime/runtime.ts'] },
    clean: { 'src/plugins/app/metrics.ts': ['src/lib/metrics-server.ts'] },
  },
  'plugins-know-no-modules': {
    violation: {
      'src/plugins/app/idempotency.ts': ['type src/modules/idempotency/service.ts'],
      'src/plugins/app/auth.ts': ['src/modules/auth/tokens.ts'],
    },
    clean: {
      'src/plugins/app/idempotency.ts': ['type src/types/idempotency.ts'],
      'src/plugins/app/auth.ts': ['type src/types/auth.ts'],
    },
  },
  'plugins-know-no-container': {
    violation: { 'src/plugins/app/context.ts': ['type src/services.ts'] },
    clean: { 'src/plugins/app/context.ts': ['type src/config.ts', 'type src/db/client.ts'] },
  },
  'foundations-know-no-domain': {
    violation: {
      'src/types/auth.ts': ['type src/modules/auth/tokens.ts'],
      'src/db/open.ts': ['type src/runtime/runtime.ts'],
      'src/config.ts': ['type src/services.ts'],
      'src/config/money.ts': ['type src/modules/users/service.ts'],
      'src/schemas/common.ts': ['type src/plugins/app/errors.ts'],
    },
    clean: {
      'src/types/auth.ts': ['type src/lib/allowed-values.ts'],
      'src/db/open.ts': ['type src/config.ts'],
    },
  },
  'types-are-types-only': {
    violation: { 'src/types/idempotency.ts': ['src/lib/time.ts'] },
    clean: { 'src/types/idempotency.ts': ['type src/db/client.ts'] },
  },
  'types-imported-as-types': {
    violation: {
      'src/plugins/app/auth.ts': ['src/types/auth.ts'],
      'src/modules/pronostics/service.ts': ['src/types/idempotency.ts'],
    },
    clean: {
      'src/plugins/app/auth.ts': ['type src/types/auth.ts'],
      'src/modules/pronostics/service.ts': ['type src/types/idempotency.ts'],
    },
  },
  // A module runs another module's code only through the container or a named pure helper.
  'modules-share-only-pure-helpers': {
    violation: {
      'src/modules/dashboard/service.ts': ['src/modules/users/profile.ts'],
      'src/modules/backoffice/service.ts': ['src/modules/users/service.ts'],
      'src/modules/events/service.ts': ['src/modules/pronostics/views.ts'],
      // Payouts build on the provider-operation core, never on payments; flags come from the container.
      'src/modules/payouts/service.ts': ['src/modules/payments/service.ts'],
      'src/modules/payments/service.ts': ['src/modules/flags/service.ts'],
    },
    clean: {
      'src/modules/dashboard/service.ts': ['src/modules/users/views.ts', 'type src/modules/users/service.ts'],
      'src/modules/payouts/service.ts': [
        'src/modules/provider-operations/follow.ts',
        'type src/modules/flags/service.ts',
      ],
      'src/modules/dashboard/routes.ts': ['src/modules/users/schemas.ts'],
      'src/modules/pronostics/service.ts': [
        'src/modules/idempotency/commit.ts',
        'src/modules/pronostics/analysis-jobs.ts',
      ],
    },
  },
};

// One rule per table file, made from the ownership map: a module owning none of its tables reads
// them (violation), the same import type-only and each owner's own reads (clean).
const TABLE_RULE = /^another-modules-tables:(.+)$/;
const STRANGER = 'src/modules/stranger/repository.ts';

function tableOwnersOf(rule: IForbiddenRuleType): string[] {
  const owners = /^\^src\/modules\/\(([^()]+)\)\/$/.exec(String(rule.from.pathNot))?.[1];
  if (!owners) throw new Error(`${rule.name}: expected from.pathNot to be ^src/modules/(owner|…)/`);
  return owners.split('|');
}

function plantFor(rule: IForbiddenRuleType): Plant | undefined {
  const file = TABLE_RULE.exec(rule.name ?? '')?.[1];
  if (!file) return plants[rule.name ?? ''];
  const table = `src/db/schema/${file}`;
  const owners = tableOwnersOf(rule);
  expect(owners).not.toContain('stranger');
  return {
    violation: { [STRANGER]: [table] },
    clean: {
      [STRANGER]: [`type ${table}`],
      ...Object.fromEntries(owners.map((owner) => [`src/modules/${owner}/repository.ts`, [table]])),
    },
  };
}

const EXPORTS = 'export const x = 1;\nexport type X = number;\n';

function specifier(from: string, to: string): string {
  const path = relative(dirname(from), to).replace(/\.ts$/, '.js');
  return path.startsWith('.') ? path : `./${path}`;
}

/** Writes the tree under a fresh directory and returns it. */
function writeTree(parent: string, name: string, tree: Tree): string {
  const dir = join(parent, name);
  const files = new Map<string, string>();
  for (const [file, imports] of Object.entries(tree)) {
    const lines = imports.map((target, i) => {
      const typeOnly = target.startsWith('type ');
      const path = typeOnly ? target.slice('type '.length) : target;
      if (!files.has(path)) files.set(path, EXPORTS);
      return typeOnly
        ? `import type { X as T${i} } from '${specifier(file, path)}';\nexport type U${i} = T${i};\n`
        : `import { x as v${i} } from '${specifier(file, path)}';\nexport const u${i} = v${i};\n`;
    });
    files.set(file, lines.join('') + EXPORTS);
  }
  for (const [file, text] of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

interface Found {
  rule: string;
  line: string;
}

async function violationsOf(dir: string): Promise<Found[]> {
  const result = await cruiseSources(dir);
  return result.summary.violations.map((v) => ({
    rule: v.rule.name,
    line: `${v.rule.name}: ${v.from} → ${v.to}`,
  }));
}

describe('the dependency rules', () => {
  let rules: IForbiddenRuleType[] = [];
  let scratch: string;
  beforeAll(async () => {
    rules = await forbiddenRules();
    scratch = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('each have a name, a comment and a planted violation', () => {
    expect(rules.length).toBeGreaterThan(20);
    const names = rules.map((rule) => rule.name);
    expect(new Set(names).size, 'rule names are unique').toBe(names.length);
    for (const rule of rules) {
      expect(rule.comment, `${rule.name} says why`).toBeTruthy();
      expect(rule.severity, `${rule.name} fails lint`).toBe('error');
      if (!plantFor(rule)) {
        expect.fail(
          `rule ${rule.name} has no planted violation: add one to test/architecture/dependency-rules.test.ts`,
        );
      }
    }
    const stale = Object.keys(plants).filter((name) => !names.includes(name));
    expect(stale, 'plants for rules that no longer exist').toEqual([]);
  });

  it('catch each planted violation under its own name, and nothing in its clean twin', async () => {
    const failures: string[] = [];
    for (const [index, rule] of rules.entries()) {
      const plant = plantFor(rule);
      if (!plant) continue;
      const found = await violationsOf(writeTree(scratch, `${index}-violation`, plant.violation));
      const clean = await violationsOf(writeTree(scratch, `${index}-clean`, plant.clean));
      const lines = (list: Found[]) => list.map((v) => v.line).join('; ');
      if (found.length === 0) failures.push(`${rule.name}: its planted violation is not reported`);
      else if (found.some((v) => v.rule !== rule.name)) {
        failures.push(`${rule.name}: the plant breaks other rules too: ${lines(found)}`);
      }
      if (clean.length > 0) failures.push(`${rule.name}: its clean twin reports ${lines(clean)}`);
    }
    expect(failures).toEqual([]);
  });

  it('give every table file of src/db/schema an owner', () => {
    const schemaDir = join(ROOT, 'src/db/schema');
    const tableFiles = readdirSync(schemaDir).filter(
      (file) => file.endsWith('.ts') && readFileSync(join(schemaDir, file), 'utf8').includes('pgTable('),
    );
    expect(tableFiles.length).toBeGreaterThan(0);
    const owned = rules.flatMap((rule) => TABLE_RULE.exec(rule.name ?? '')?.[1] ?? []);
    const unowned = tableFiles.filter((file) => !owned.includes(file));
    expect(
      unowned,
      'table files without an owner: add them to TABLE_OWNERS in .dependency-cruiser.cjs',
    ).toEqual([]);
  });
});
