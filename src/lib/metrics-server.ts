// The metrics' own small HTTP server (METRICS_PORT): `GET /metrics` on 127.0.0.1 only, without a
// token, apart from the service's port, so a local Prometheus agent can scrape a process that
// serves no HTTP (ROLE=worker) or one whose port faces the internet. Anything else is a 404.
import { createServer } from 'node:http';
import { messages } from './messages.js';

export interface MetricsListener {
  /** The port it listens on (the one asked for). */
  port: number;
  close(): Promise<void>;
}

export type RenderMetrics = () => Promise<{ contentType: string; body: string }>;

export async function serveMetrics(port: number, render: RenderMetrics): Promise<MetricsListener> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      response.end(`${messages.routeNotFound}\n`);
      return;
    }
    render().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      () => {
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`${messages.serverError}\n`);
      },
    );
  });
  // A scrape is one small request: a client that dawdles is cut off.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
