// Issue 40, "every route's test suite has at least one English case": the routes the app serves
// (method and path), each named by a test title in some test/<area>/english.test.ts
// (`it('POST /api/otp/generate', …)`). test/architecture/english-coverage.test.ts runs
// `englishCoverageProblems` on the real app and tests, and on planted ones.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Routes with no English case of their own, each with its reason. */
export const NOT_COVERED_HERE: { route: string; reason: string }[] = [];

/** A route's label as tests write it: the method, a space, the path as registered. */
const LABEL =
  /\b(?:it|test|describe)(?:\.each\([^)]*\))?\(\s*['"`]((?:GET|POST|PUT|PATCH|DELETE) \/[^'"`\s]*)/g;

/** Every label the english.test.ts files name, by file. */
export function labelsOf(files: Record<string, string>): Map<string, string[]> {
  const labels = new Map<string, string[]>();
  for (const [path, text] of Object.entries(files)) {
    for (const match of text.matchAll(LABEL)) {
      const label = match[1] as string;
      labels.set(label, [...(labels.get(label) ?? []), path]);
    }
  }
  return labels;
}

/** Routes served with no English case, and English cases naming no route served. */
export function englishCoverageProblems(
  routes: readonly string[],
  files: Record<string, string>,
  notCovered = NOT_COVERED_HERE,
): string[] {
  const labels = labelsOf(files);
  const excused = new Set(notCovered.map((entry) => entry.route));
  const problems: string[] = [];
  for (const route of routes)
    if (!labels.has(route) && !excused.has(route)) problems.push(`${route}: no English case`);
  const served = new Set(routes);
  for (const [label, paths] of labels)
    if (!served.has(label)) problems.push(`${label} (${paths.join(', ')}): not a route the app serves`);
  return problems;
}

/** Every english.test.ts under test/, by path from the root. */
export function readEnglishTests(root = ROOT): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name === 'english.test.ts') files[relative(root, full)] = readFileSync(full, 'utf8');
    }
  };
  walk(join(root, 'test'));
  return files;
}
