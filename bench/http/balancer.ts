// The load balancer of `bench:http --api-processes N`: nginx from Debian (`apt-get install -y
// nginx`), run in the foreground as the bench's child with a temporary nginx.conf whose upstream
// holds the N API processes' ports (least connections, keep-alive to them), stopped at the end.
// Its CPU and memory (master and workers) are read from /proc: nginx serves no /metrics.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenOf, freePort, type ProcessFigures, processStats, type Server } from '../service-process.js';

const NGINX = '/usr/sbin/nginx';

function config(dir: string, port: number, upstreams: number[]): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream api {
    least_conn;
${upstreams.map((upstream) => `    server 127.0.0.1:${upstream};`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://api;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    }
  }
}
`;
}

export async function startNginx(upstreams: number[]): Promise<Server> {
  const version = spawnSync(NGINX, ['-v'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error('nginx not found: apt-get install -y nginx');
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  const port = await freePort();
  const file = join(dir, 'nginx.conf');
  writeFileSync(file, config(dir, port, upstreams));
  const child = spawn(NGINX, ['-e', join(dir, 'error.log'), '-p', `${dir}/`, '-c', file], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`nginx exited with ${child.exitCode} (see ${dir}/error.log)`);
    try {
      await fetch(`${url}/api/`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error('nginx did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const pid = child.pid!;
  return {
    name: 'nginx',
    url,
    child,
    async figures(): Promise<ProcessFigures> {
      const all = [pid, ...childrenOf(pid)].map(processStats);
      return {
        cpuSeconds: all.reduce((sum, one) => sum + one.cpuSeconds, 0),
        rssMb: all.reduce((sum, one) => sum + one.rssMb, 0),
      };
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        // QUIT: graceful shutdown of the workers, then the master.
        child.kill('SIGQUIT');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** N API processes, a worker and the balancer in front, measured as one server (API + worker), each part also on its own. */
export function serverGroup(name: string, front: Server, members: Server[]): Server {
  return {
    name,
    url: front.url,
    child: front.child,
    parts: [...members, front],
    async figures() {
      const all = await Promise.all(members.map((member) => member.figures()));
      return {
        cpuSeconds: all.reduce((sum, one) => sum + one.cpuSeconds, 0),
        rssMb: all.reduce((sum, one) => sum + one.rssMb, 0),
      };
    },
    async stop() {
      await front.stop();
      for (const member of members) await member.stop();
    },
  };
}
