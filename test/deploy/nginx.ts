// Runs deploy/nginx/pronostics.conf for a test: the file rendered with the test's ports and a
// self-signed certificate (every substitution must find its line, so a reworded file fails here
// rather than running something else), inside a main nginx.conf of the test's own, nginx started
// in the foreground with its prefix, pid, logs and temp files in a scratch directory.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';

export const NGINX_CONF = new URL('../../deploy/nginx/pronostics.conf', import.meta.url);

/** nginx's path, or undefined when it is not installed. */
export function nginxPath(): string | undefined {
  for (const candidate of ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {}
  }
  try {
    return execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Skipped only on a developer's machine without nginx; in CI (`CI` set) a missing nginx fails. */
export function skipReason(): string | undefined {
  if (nginxPath() || process.env.CI) return undefined;
  return 'nginx is not installed (apt-get install -y nginx; CI installs it and never skips)';
}

/** A port free right now on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Rendering {
  upstreams: number[];
  httpPort: number;
  httpsPort: number;
  certificate: string;
  key: string;
  /** Where the site's access log goes (the file names /var/log/nginx). */
  accessLog: string;
  /** Further [line as in the file, line for the test] replacements (each must be found). */
  replace?: [string, string][];
}

function replaceOnce(text: string, find: string | RegExp, by: string, what: string): string {
  const matches = text.match(new RegExp(find, typeof find === 'string' ? 'g' : `${find.flags}g`)) ?? [];
  if (matches.length === 0) throw new Error(`deploy/nginx/pronostics.conf: no ${what} to substitute`);
  return text.replace(new RegExp(find, typeof find === 'string' ? 'g' : `${find.flags}g`), by);
}

const literal = (line: string) => new RegExp(line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/** The deploy file with the test's ports and certificate; loopback IPv4 only. */
export function renderConfig(options: Rendering): string {
  let text = readFileSync(NGINX_CONF, 'utf8');
  // The upstream's `server` lines: one per api process of the test.
  const upstream = /upstream pronostics_api \{\n((?:.*\n)*?)\}/.exec(text);
  if (!upstream?.[1]) throw new Error('deploy/nginx/pronostics.conf: no upstream pronostics_api');
  const serverLine = /^\s*server 127\.0\.0\.1:\d+( .*)?;$/m.exec(upstream[1]);
  if (!serverLine) throw new Error('deploy/nginx/pronostics.conf: no server line in the upstream');
  const body = upstream[1]
    .split('\n')
    .filter((line) => !/^\s*server /.test(line))
    .join('\n');
  const servers = options.upstreams
    .map((port) => `    server 127.0.0.1:${port}${serverLine[1] ?? ''};`)
    .join('\n');
  text = text.replace(upstream[0], `upstream pronostics_api {\n${servers}\n${body}}`);
  text = replaceOnce(text, /^\s*listen \[::\]:\d+.*\n/m, '', 'IPv6 listen line');
  text = replaceOnce(text, literal('listen 80;'), `listen 127.0.0.1:${options.httpPort};`, 'port 80');
  text = replaceOnce(
    text,
    literal('listen 443 ssl http2;'),
    `listen 127.0.0.1:${options.httpsPort} ssl http2;`,
    'port 443',
  );
  text = replaceOnce(
    text,
    /ssl_certificate\s+\S+;/,
    `ssl_certificate ${options.certificate};`,
    'certificate',
  );
  text = replaceOnce(text, /ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${options.key};`, 'key');
  text = replaceOnce(
    text,
    /access_log \S+ pronostics_access;/,
    `access_log ${options.accessLog} pronostics_access;`,
    'access log',
  );
  for (const [from, to] of options.replace ?? [])
    text = replaceOnce(text, literal(from), to, `line "${from}"`);
  return text;
}

/** A self-signed certificate for 127.0.0.1, made with openssl. */
export function selfSignedCertificate(dir: string): { certificate: string; key: string; pem: string } {
  const certificate = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      certificate,
    ],
    { stdio: 'ignore' },
  );
  return { certificate, key, pem: readFileSync(certificate, 'utf8') };
}

export interface RunningNginx {
  output(): string;
  stop(): Promise<void>;
}

/** nginx in the foreground on `site` (an http-context file), everything it writes under `dir`. */
export async function startNginx(dir: string, site: string, port: number): Promise<RunningNginx> {
  const binary = nginxPath();
  if (!binary) throw new Error('nginx is not installed (CI installs it: .ci/run)');
  for (const sub of ['logs', 'temp']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, 'pronostics.conf'), site);
  // Debian's main file turns gzip on for the whole http block: so does this one (for the event
  // stream's type too), so the site's own `gzip off` is what keeps the event stream uncompressed.
  const main = [
    'daemon off;',
    'worker_processes 1;',
    // As root, workers would run as nobody, who cannot write the temp files in a private directory.
    ...(process.getuid?.() === 0 ? ['user root;'] : []),
    `pid ${join(dir, 'nginx.pid')};`,
    `error_log ${join(dir, 'logs', 'error.log')} info;`,
    'events { worker_connections 256; }',
    'http {',
    '  default_type application/octet-stream;',
    `  access_log ${join(dir, 'logs', 'access.log')};`,
    `  client_body_temp_path ${join(dir, 'temp', 'body')};`,
    `  proxy_temp_path ${join(dir, 'temp', 'proxy')};`,
    `  fastcgi_temp_path ${join(dir, 'temp', 'fastcgi')};`,
    `  uwsgi_temp_path ${join(dir, 'temp', 'uwsgi')};`,
    `  scgi_temp_path ${join(dir, 'temp', 'scgi')};`,
    '  gzip on;',
    '  gzip_types text/event-stream application/json;',
    // And, like the proxies that do not read it, nginx ignores the service's X-Accel-Buffering: no,
    // so the site's own proxy_buffering off is what keeps the events flowing.
    '  proxy_ignore_headers X-Accel-Buffering;',
    `  include ${join(dir, 'pronostics.conf')};`,
    '}',
  ].join('\n');
  writeFileSync(join(dir, 'nginx.conf'), main);
  // -e: the log nginx writes before it reads the file is ours too (its default is /var/log/nginx).
  const args = ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'logs', 'error.log')];
  const child: ChildProcess = spawn(binary, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'logs', 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  for (let waited = 0; ; waited += 50) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${output}${errorLog()}`);
    if (await accepts(port)) break;
    if (waited > 10_000) throw new Error(`nginx did not listen on ${port}: ${output}${errorLog()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    output: () => output + errorLog(),
    async stop() {
      if (child.exitCode === null) {
        // QUIT: a graceful stop (TERM is a fast one); either ends its workers with it.
        child.kill('SIGQUIT');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTPS request through nginx on a connection of its own, from `from` (a loopback address). */
export function request(
  port: number,
  ca: string,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    from?: string;
    /** A keep-alive agent to send several requests on one connection; default: a connection each. */
    agent?: https.Agent;
  },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        port,
        ca,
        agent: options.agent ?? false,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
        localAddress: options.from,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
