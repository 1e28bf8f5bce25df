// The module map (docs/module-map.md), made from dependency-cruiser's view of src/: one small
// Mermaid diagram per area (a module folder, another folder of src/, the top-level files) with its
// files and the imports leaving and entering it, other areas drawn as one box each (a module, a
// provider, a folder, a top-level file), arrows to lib, db and schemas left out. Which areas exist
// is read from the files, never listed. `npm run docs:module-map` writes it;
// test/architecture/module-map.test.ts fails when the committed file is not what this makes now.
import { join } from 'node:path';
import type { ICruiseResult } from 'dependency-cruiser';
import { cruiseSources, ROOT } from './cruise.js';

export const MODULE_MAP_FILE = join(ROOT, 'docs/module-map.md');
export const MODULE_MAP_COMMAND = 'npm run docs:module-map';

/**
 * The area a file of src/ belongs to: `modules/<name>` and `providers/<name>` for the files under
 * them, the first folder for any other folder (plugins, db, engine, lib, cli, runtime…), and a
 * top-level file (config.ts, app.ts, services.ts, server.ts, runtime.ts…) as itself.
 */
export function areaOf(path: string): string {
  const parts = path.replace(/^src\//, '').split('/');
  if ((parts[0] === 'modules' || parts[0] === 'providers') && parts.length > 1)
    return `${parts[0]}/${parts[1]}`;
  return parts[0] ?? path;
}

interface Arrow {
  from: string;
  to: string;
  /** True when at least one import behind the arrow is not type-only. */
  runtime: boolean;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Areas no arrow is drawn to and that get no diagram of their own: nearly every file imports them.
 * An import from one of them into another area is still drawn, in that area's diagram.
 */
export const LEFT_OUT = ['lib', 'db', 'schemas'] as const;

/** The name of the top-level files' section (app.ts, server.ts, config.ts…). */
export const TOP_LEVEL = 'top-level files';

/**
 * The diagram a file of src/ is drawn in: `modules/<name>` for a module's files, the first folder
 * for any other folder (`providers`, `plugins`, `runtime`, `cli`, `engine`…), and one section for
 * the top-level files. Folders appear and go as src/ changes: nothing here lists them.
 */
export function sectionOf(path: string): string {
  const parts = path.replace(/^src\//, '').split('/');
  if (parts.length === 1) return TOP_LEVEL;
  if (parts[0] === 'modules' && parts.length > 2) return `modules/${parts[1]}`;
  return parts[0] ?? path;
}

interface Section {
  name: string;
  /** The section's files, relative to src/, sorted. */
  files: string[];
  /** Imports between two of the section's files. */
  inside: Arrow[];
  /** A file of the section → an area outside it. */
  leaving: Arrow[];
  /** An area outside the section → a file of it. */
  entering: Arrow[];
}

const leftOut = (area: string) => (LEFT_OUT as readonly string[]).includes(area);

/** One section per folder (a module, providers, runtime…) but lib, db and schemas, sorted. */
export function sections(result: ICruiseResult): Section[] {
  const byName = new Map<string, Section>();
  const section = (name: string) => {
    let found = byName.get(name);
    if (!found) {
      found = { name, files: [], inside: [], leaving: [], entering: [] };
      byName.set(name, found);
    }
    return found;
  };
  const add = (list: Arrow[], from: string, to: string, runtime: boolean) => {
    const arrow = list.find((a) => a.from === from && a.to === to);
    if (arrow) arrow.runtime ||= runtime;
    else list.push({ from, to, runtime });
  };
  for (const module of result.modules) {
    if (!module.source.startsWith('src/')) continue;
    const file = module.source.replace(/^src\//, '');
    const from = sectionOf(module.source);
    if (!leftOut(areaOf(module.source))) section(from).files.push(file);
    for (const dependency of module.dependencies) {
      if (!dependency.resolved.startsWith('src/')) continue;
      const targetArea = areaOf(dependency.resolved);
      if (leftOut(targetArea)) continue;
      const target = dependency.resolved.replace(/^src\//, '');
      const to = sectionOf(dependency.resolved);
      const runtime = !dependency.dependencyTypes.includes('type-only');
      if (to === from) {
        if (target !== file) add(section(from).inside, file, target, runtime);
        continue;
      }
      if (!leftOut(areaOf(module.source))) add(section(from).leaving, file, targetArea, runtime);
      add(section(to).entering, areaOf(module.source), target, runtime);
    }
  }
  const order = (a: Arrow, b: Arrow) => compare(a.from, b.from) || compare(a.to, b.to);
  return [...byName.values()]
    .filter((s) => s.files.length > 0)
    .map((s) => ({
      ...s,
      files: s.files.sort(compare),
      inside: s.inside.sort(order),
      leaving: s.leaving.sort(order),
      entering: s.entering.sort(order),
    }))
    .sort((a, b) => compare(a.name, b.name));
}

const nodeId = (prefix: string, name: string) => `${prefix}_${name.replace(/[^A-Za-z0-9]/g, '_')}`;
const arrowText = (runtime: boolean) => (runtime ? '-->' : '-.->');
const unique = (names: string[]) => [...new Set(names)].sort(compare);

/** The label of a section's file in its own diagram: its path inside the section's folder. */
function fileLabel(section: string, file: string): string {
  if (section === TOP_LEVEL) return file;
  return file.slice(file.indexOf(section) === 0 ? section.length + 1 : 0);
}

/** One section's Mermaid diagram. */
function diagram(section: Section): string[] {
  const file = (name: string) => nodeId('f', name);
  const area = (name: string) => nodeId('a', name);
  const outside = unique([...section.leaving.map((a) => a.to), ...section.entering.map((a) => a.from)]);
  return [
    '```mermaid',
    'flowchart LR',
    `  subgraph ${nodeId('s', section.name)}["${section.name}"]`,
    ...section.files.map((f) => `    ${file(f)}["${fileLabel(section.name, f)}"]`),
    '  end',
    ...outside.map((a) => `  ${area(a)}["${a}"]`),
    ...section.inside.map((a) => `  ${file(a.from)} ${arrowText(a.runtime)} ${file(a.to)}`),
    ...section.leaving.map((a) => `  ${file(a.from)} ${arrowText(a.runtime)} ${area(a.to)}`),
    ...section.entering.map((a) => `  ${area(a.from)} ${arrowText(a.runtime)} ${file(a.to)}`),
    '```',
  ];
}

const codeList = (names: string[]) => names.map((n) => `\`${n}\``).join(', ') || '—';

/** docs/module-map.md's text for a cruise of src/. */
export function renderModuleMap(result: ICruiseResult): string {
  const all = sections(result);
  const lines = [
    '<!-- Generated by `npm run docs:module-map` (scripts/architecture/module-map.ts): do not edit by hand. -->',
    '<!-- test/architecture/module-map.test.ts fails when this file is not what the command writes now. -->',
    '',
    '# Module map',
    '',
    'Who imports whom in `src/`, as dependency-cruiser sees it, one small diagram per area: each module',
    'folder of `src/modules/`, each other folder of `src/` (`cli`, `engine`, `plugins`, `providers`,',
    '`runtime`…) and the top-level files (`app.ts`, `config.ts`, `server.ts`, `services.ts`…). Each',
    "diagram shows the area's files, the imports between them, and the arrows leaving the area (to",
    'another area, drawn as one box) and entering it (from another area, one box). **Arrows to',
    '`src/lib/`, `src/db/` and `src/schemas/` are left out**, and those three have no diagram: nearly',
    'every file imports them. A solid arrow is a runtime import; a dashed one is made of type-only',
    'imports (`import type`), which vanish from the compiled code. The rules these arrows must follow',
    'are in docs/architecture.md and `.dependency-cruiser.cjs`.',
    '',
    '| area | files | imports (areas) | imported by (areas) |',
    '|---|---|---|---|',
    ...all.map(
      (s) =>
        `| ${s.name} | ${s.files.length} | ${codeList(unique(s.leaving.map((a) => a.to)))} | ${codeList(unique(s.entering.map((a) => a.from)))} |`,
    ),
    '',
    ...all.flatMap((s) => [`## ${s.name}`, '', ...diagram(s), '']),
  ];
  return lines.join('\n');
}

/** Cruises src/ now and renders the map. */
export async function generateModuleMap(): Promise<string> {
  return renderModuleMap(await cruiseSources());
}
