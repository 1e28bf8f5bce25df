// The decision records (docs/decisions/NNNN-title.md) and their index (docs/decisions.md) hold
// together: every file is linked from the index and every link has its file, each file has its
// Status, Date, Context, Decision and Consequences, a `Superseded by` points at a file that exists,
// the numbers run 1, 2, 3… with none twice, and nothing in the repository still names a section of
// the old one-file log or links a decision file that is not there.
// test/architecture/decisions.test.ts runs `decisionProblems` on the real tree and on planted ones.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const INDEX_MAX_LINES = 100;

/** Where references to decisions are looked for, from the repository's root. */
export const SOURCE_PLACES = ['src', 'test', 'scripts', 'bench', 'console', 'clients', 'docs', 'README.md'];
const TEXT_FILE = /\.(ts|tsx|js|cjs|mjs|json|md|html|css|sql|ya?ml|txt)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git']);

export interface DecisionTree {
  /** docs/decisions.md. */
  index: string;
  /** docs/decisions/: file name → text. */
  files: Record<string, string>;
  /** Every other text file of SOURCE_PLACES: path from the root → text. */
  sources: Record<string, string>;
}

const FILE_NAME = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/;
/** A decision file named anywhere, with its folder: `docs/decisions/NNNN-…` or `decisions/NNNN-…`. */
const DECISION_PATH = /decisions\/(\d{4}-[A-Za-z0-9-]+\.md)/g;
/** The old one-file log named with a section after it: its name, then a quote or a parenthesis. */
const OLD_SECTION = /decisions\.md\s*,?\s*["“(]/;
/** A link from one decision file to another (same folder). */
const SIBLING_LINK = /\]\((\d{4}-[A-Za-z0-9-]+\.md)\)/g;

export function decisionProblems(tree: DecisionTree): string[] {
  const problems: string[] = [];
  const names = Object.keys(tree.files).sort();
  const exists = new Set(names);

  const indexLines = tree.index.replace(/\n$/, '').split('\n').length;
  if (indexLines > INDEX_MAX_LINES)
    problems.push(`docs/decisions.md has ${indexLines} lines (at most ${INDEX_MAX_LINES})`);

  const linked = new Set([...tree.index.matchAll(DECISION_PATH)].map((m) => m[1] as string));
  for (const name of linked)
    if (!exists.has(name)) problems.push(`docs/decisions.md links decisions/${name}, which does not exist`);
  for (const name of names)
    if (!linked.has(name)) problems.push(`docs/decisions/${name} is not linked from docs/decisions.md`);

  const numbers: number[] = [];
  for (const name of names) {
    const where = `docs/decisions/${name}`;
    const number = FILE_NAME.exec(name)?.[1];
    if (!number) {
      problems.push(`${where}: the name is not NNNN-kebab-title.md`);
      continue;
    }
    numbers.push(Number(number));
    problems.push(...fileProblems(where, number, tree.files[name] as string, exists));
  }

  const seen = new Set<number>();
  for (const n of numbers) {
    if (seen.has(n)) problems.push(`decision number ${pad(n)} is used twice`);
    seen.add(n);
  }
  const distinct = [...seen].sort((a, b) => a - b);
  distinct.forEach((n, i) => {
    if (n !== i + 1)
      problems.push(`decision numbers are not consecutive: ${pad(n)} where ${pad(i + 1)} is due`);
  });

  for (const [path, text] of Object.entries(tree.sources)) {
    text.split('\n').forEach((line, i) => {
      if (OLD_SECTION.test(line))
        problems.push(
          `${path}:${i + 1} names a section of docs/decisions.md: point at its file in docs/decisions/`,
        );
      for (const m of line.matchAll(DECISION_PATH))
        if (!exists.has(m[1] as string))
          problems.push(`${path}:${i + 1} links docs/decisions/${m[1]}, which does not exist`);
    });
  }
  return problems;
}

function fileProblems(where: string, number: string, text: string, exists: Set<string>): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  if (!new RegExp(`^# ${number}\\. \\S`).test(lines[0] ?? ''))
    problems.push(`${where}: the first line is not "# ${number}. Title"`);
  const status = lines.find((l) => l.startsWith('Status: '));
  if (!status) problems.push(`${where}: no "Status:" line`);
  else if (!/^Status: (Accepted|Superseded by \[\d{4}\]\(\d{4}-[^)]+\.md\))/.test(status))
    problems.push(`${where}: the status is neither "Accepted" nor "Superseded by [NNNN](NNNN-….md)"`);
  if (!lines.some((l) => /^Date: \d{4}-\d{2}-\d{2}$/.test(l)))
    problems.push(`${where}: no "Date: YYYY-MM-DD" line`);
  let at = -1;
  for (const part of ['Context', 'Decision', 'Consequences']) {
    const found = lines.indexOf(`## ${part}`);
    if (found < 0) problems.push(`${where}: no "## ${part}" part`);
    else if (found < at) problems.push(`${where}: "## ${part}" is out of order`);
    else at = found;
  }
  for (const m of text.matchAll(SIBLING_LINK))
    if (!exists.has(m[1] as string)) problems.push(`${where} links ${m[1]}, which does not exist`);
  return problems;
}

function pad(n: number): string {
  return String(n).padStart(4, '0');
}

/** The repository as it is on disk. */
export function readDecisionTree(root = ROOT): DecisionTree {
  const folder = join(root, 'docs/decisions');
  const files: Record<string, string> = {};
  for (const name of readdirSync(folder)) files[name] = readFileSync(join(folder, name), 'utf8');
  const sources: Record<string, string> = {};
  const visit = (path: string): void => {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) if (!SKIPPED_DIRS.has(entry)) visit(join(path, entry));
      return;
    }
    const rel = relative(root, path);
    if (rel === 'docs/decisions.md' || rel.startsWith('docs/decisions/') || !TEXT_FILE.test(rel)) return;
    sources[rel] = readFileSync(path, 'utf8');
  };
  for (const place of SOURCE_PLACES) visit(join(root, place));
  return { index: readFileSync(join(root, 'docs/decisions.md'), 'utf8'), files, sources };
}
