// The module-loop rule (docs/architecture.md, "The rules"): no module imports, directly or through
// other modules, a module that imports it. dependency-cruiser's `no-circular` sees files, so two
// modules whose files import each other without a file circle (a type one way, a service the other)
// pass it; here each module (`src/modules/<name>/`) and each capability folder (`CAPABILITIES`) is
// one node, every import between two nodes an arrow, type-only imports included, and any circle
// of arrows is a loop. `npm run lint:modules` runs it on src/; test/architecture/module-loops.test.ts
// plants loops in memory.
import type { ICruiseResult } from 'dependency-cruiser';

/** Folders of src/ that are one capability, one node however many modules they hold. */
export const CAPABILITIES = ['src/money/'] as const;

/** The node a file of src/ belongs to: its capability, its module, or none (lib, db, runtime…). */
export function nodeOf(path: string): string | undefined {
  const capability = CAPABILITIES.find((folder) => path.startsWith(folder));
  if (capability) return capability.replace(/^src\//, '').replace(/\/$/, '');
  return /^src\/modules\/([^/]+)\//.exec(path)?.[1];
}

/** The file imports behind one arrow between two nodes. */
type Imports = string[];
type Graph = Map<string, Map<string, Imports>>;

export interface ModuleLoop {
  /** The nodes of the loop, in the order of one circle through them, back to the first. */
  circle: string[];
  /** For each arrow of the circle, `from → to` and the file imports behind it. */
  arrows: Array<{ from: string; to: string; imports: Imports }>;
}

function graphOf(result: Pick<ICruiseResult, 'modules'>): Graph {
  const graph: Graph = new Map();
  for (const file of result.modules) {
    const from = nodeOf(file.source);
    if (!from) continue;
    for (const dependency of file.dependencies) {
      const to = nodeOf(dependency.resolved);
      if (!to || to === from) continue;
      const typeOnly = dependency.dependencyTypes.includes('type-only') ? ' (type-only)' : '';
      const arrows = graph.get(from) ?? new Map<string, Imports>();
      graph.set(from, arrows);
      arrows.set(to, [...(arrows.get(to) ?? []), `${file.source} → ${dependency.resolved}${typeOnly}`]);
    }
  }
  return graph;
}

/** The strongly connected components of more than one node (Tarjan), each sorted, in name order. */
function tangles(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** The shortest circle from `start` back to it, inside `members` (breadth first). */
function circleThrough(graph: Graph, start: string, members: ReadonlySet<string>): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of [...(graph.get(node)?.keys() ?? [])].sort()) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(cameFrom.get(path[0]!)!);
        return [...path, start];
      }
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, node);
      queue.push(next);
    }
  }
  return [start];
}

/** Every loop between modules (one per tangle of nodes that reach each other), none when clean. */
export function moduleLoops(result: Pick<ICruiseResult, 'modules'>): ModuleLoop[] {
  const graph = graphOf(result);
  return tangles(graph).map((members) => {
    const circle = circleThrough(graph, members[0]!, new Set(members));
    const arrows = circle.slice(1).map((to, i) => {
      const from = circle[i]!;
      return { from, to, imports: graph.get(from)?.get(to) ?? [] };
    });
    return { circle, arrows };
  });
}

/** A loop as the lint prints it: the circle, then each arrow's imports. */
export function describeLoop(loop: ModuleLoop): string {
  const lines = [`module loop: ${loop.circle.join(' → ')}`];
  for (const arrow of loop.arrows) {
    lines.push(`  ${arrow.from} → ${arrow.to}:`, ...arrow.imports.map((line) => `    ${line}`));
  }
  return lines.join('\n');
}
