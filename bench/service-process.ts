// A service (or the reference server) as a child process for the HTTP benchmarks: started on a
// free port with its environment, waited for until it answers, stopped with SIGTERM; and the CPU
// and memory of a process read from /proc, as a production dashboard would.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = new URL('../', import.meta.url).pathname;

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function startService(
  name: string,
  script: string,
  env: Record<string, string>,
): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), REF_PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    try {
      await fetch(`${url}/api/`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${name} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return {
    name,
    url,
    child,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** CPU seconds (user + system) and resident memory of a process, from /proc (Linux). */
export function processStats(pid: number): { cpuSeconds: number; rssMb: number } {
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
