// dependency-cruiser's JS API with the project's own configuration (.dependency-cruiser.cjs), as
// `npm run lint:deps` runs it: for the module map (on src/) and for the planted violations of
// test/architecture (on a fixture tree whose paths read `src/…`, so the rules' `^src/` patterns apply).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseOptions, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CONFIG_FILE = join(ROOT, '.dependency-cruiser.cjs');
const TS_CONFIG_FILE = join(ROOT, 'tsconfig.json');

/** The cruise options `depcruise --config .dependency-cruiser.cjs` uses, rules included. */
export async function projectOptions(): Promise<ICruiseOptions> {
  return extractDepcruiseOptions(CONFIG_FILE);
}

// Parsed once per process: the test cruises dozens of small trees.
let parsedTsConfig: ReturnType<typeof extractTSConfig> | undefined;
function tsConfig(): ReturnType<typeof extractTSConfig> {
  parsedTsConfig ??= extractTSConfig(TS_CONFIG_FILE);
  return parsedTsConfig;
}

/** The configuration's forbidden rules, in its order. */
export async function forbiddenRules(): Promise<IForbiddenRuleType[]> {
  return (await projectOptions()).ruleSet?.forbidden ?? [];
}

/** Cruises `<baseDir>/src` with the project's rules; module paths come out as `src/…`. */
export async function cruiseSources(baseDir: string = ROOT): Promise<ICruiseResult> {
  const options = await projectOptions();
  const result = await cruise(
    ['src'],
    { ...options, baseDir, tsConfig: { fileName: TS_CONFIG_FILE }, outputType: 'json' },
    {},
    { tsConfig: tsConfig() },
  );
  return JSON.parse(result.output as string) as ICruiseResult;
}
