// A service (or the reference server) as a child process for the HTTP benchmarks: started on a
// free port with its environment, waited for until it answers, stopped with SIGTERM. Its CPU and
// memory are read as a production dashboard would: from the service's own `GET /metrics` when it
// has a METRICS_TOKEN (or a METRICS_PORT), from /proc for a process without metrics (the reference
// server, nginx).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = new URL('../', import.meta.url).pathname;
const referenceBuild = join(root, 'node_modules/.cache/bench-build');

let built = false;

/**
 * The JavaScript a bench runs for a TypeScript entry: the service as `npm run build` compiles it
 * (`dist/server.js`, what `npm start` runs in production) and the reference servers compiled by tsc
 * the same way (`bench/tsconfig.build.json`), so neither carries tsx's loader, which held about
 * 75 MB of the service's resident memory. Built once per bench run.
 */
function compiled(script: string): string {
  if (!built) {
    execFileSync('npm', ['run', '-s', 'build'], { cwd: root, stdio: 'inherit' });
    execFileSync(
      process.execPath,
      [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'bench/tsconfig.build.json'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    built = true;
  }
  if (script === 'src/server.ts') return join(root, 'dist/server.js');
  if (script.startsWith('bench/')) return join(referenceBuild, script.replace(/\.ts$/, '.js'));
  throw new Error(`no compiled form of ${script}`);
}

/**
 * The Node options `npm start` gives the service (`node --v8-pool-size=1 dist/server.js` gives
 * `['--v8-pool-size=1']`), so a bench measures the process production runs. The reference servers
 * get none: they stay the yardstick they were.
 */
export function startScriptNodeOptions(startScript: string): string[] {
  const words = startScript.trim().split(/\s+/);
  const entry = words.indexOf('dist/server.js');
  if (words[0] !== 'node' || entry < 0)
    throw new Error(`npm start is not \`node … dist/server.js\`: ${startScript}`);
  return words.slice(1, entry);
}

const serviceNodeOptions = (): string[] => {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  return startScriptNodeOptions(manifest.scripts.start);
};

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** CPU seconds used so far and resident memory now. */
export interface ProcessFigures {
  cpuSeconds: number;
  rssMb: number;
}

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  /** Its CPU and memory now: from its /metrics when it serves them, else from /proc (all its processes, for a group). */
  figures(): Promise<ProcessFigures>;
  /** A group's processes (API processes, worker, balancer), each reported on its own too. */
  parts?: Server[];
  stop(): Promise<void>;
}

/** Where a process's Prometheus text is read: its URL, and the bearer token it asks for (none on a METRICS_PORT). */
export interface MetricsEndpoint {
  url: string;
  token?: string;
}

/** `process_cpu_seconds_total` and `process_resident_memory_bytes` from a /metrics answer. */
export async function metricsFigures(endpoint: MetricsEndpoint): Promise<ProcessFigures> {
  const response = await fetch(endpoint.url, {
    headers: endpoint.token ? { authorization: `Bearer ${endpoint.token}` } : {},
  });
  if (!response.ok) throw new Error(`${endpoint.url} answered ${response.status}`);
  const text = await response.text();
  const sample = (name: string) => {
    const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
    if (!line) throw new Error(`${endpoint.url} has no ${name}`);
    return Number(line.slice(name.length + 1));
  };
  return {
    cpuSeconds: sample('process_cpu_seconds_total'),
    rssMb: sample('process_resident_memory_bytes') / 2 ** 20,
  };
}

export async function startService(
  name: string,
  script: string,
  env: Record<string, string>,
  options: {
    metrics?: (url: string) => MetricsEndpoint;
    /** The variables given the free port (a ROLE=worker process listens only on METRICS_PORT). */
    portVariables?: string[];
    /** The path answered once it is up. */
    readyPath?: string;
    /** Node options before the script (`--cpu-prof …`). */
    nodeArgs?: string[];
  } = {},
): Promise<Server> {
  const port = await freePort();
  const ports = Object.fromEntries(
    (options.portVariables ?? ['PORT', 'REF_PORT']).map((name) => [name, String(port)]),
  );
  const nodeOptions = script === 'src/server.ts' ? serviceNodeOptions() : [];
  const child = spawn(process.execPath, [...nodeOptions, ...(options.nodeArgs ?? []), compiled(script)], {
    cwd: root,
    env: { ...process.env, ...env, ...ports, HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      await fetch(`${url}${options.readyPath ?? '/api/'}`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const metrics = options.metrics?.(url);
  return {
    name,
    url,
    child,
    figures: async () => (metrics ? metricsFigures(metrics) : processStats(child.pid!)),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A process's children (nginx's workers), from /proc. */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return children;
}

/** CPU seconds (user + system) and resident memory of a process, from /proc (Linux). */
export function processStats(pid: number): ProcessFigures {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / 100;
    const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { cpuSeconds, rssMb: rss ? Number(rss[1]) / 1024 : 0 };
  } catch {
    return { cpuSeconds: 0, rssMb: 0 };
  }
}
