// Prometheus metrics over HTTP (modules/metrics/service.ts builds them). Each route gets its own
// onResponse hook at registration, holding its recorder: a request costs one observation, with no
// lookup of its route and no allocation of ours. Requests no route matched are counted under the
// route `unmatched`. Responsible play's refusals are counted by reason from the errors routes throw. METRICS_PORT serves the metrics on 127.0.0.1 without a token, from its own
// small server closed with the app (the token's route is modules/metrics/routes.ts). Neither
// METRICS_TOKEN nor METRICS_PORT set: no hook.
import type { FastifyInstance, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { PlayRefused } from '../../lib/errors.js';
import { type MetricsListener, serveMetrics } from '../../lib/metrics-server.js';
import { addRouteHook } from './route-hooks.js';

async function metricsPlugin(app: FastifyInstance): Promise<void> {
  const { metrics } = app.services;
  if (!metrics) return;

  app.addHook('onRoute', (route) => {
    const method = Array.isArray(route.method) ? route.method.join(',') : String(route.method);
    const record = metrics.routeRecorder(method, route.url ?? route.path);
    const hook: onResponseHookHandler = (_request, reply, done) => {
      record(reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    addRouteHook(route, 'onResponse', hook);
  });
  const unmatched = new Map<string, ReturnType<typeof metrics.routeRecorder>>();
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) {
      let record = unmatched.get(request.method);
      if (!record) {
        // Methods are bounded by the HTTP parser's own list; the path is never a label.
        record = metrics.routeRecorder(request.method, 'unmatched');
        unmatched.set(request.method, record);
      }
      record(reply.statusCode, reply.elapsedTime / 1000);
    }
    done();
  });

  // Responsible play's refusals, by reason: whichever route refused (checkout, analysis, slip).
  app.addHook('onError', (_request, _reply, error, done) => {
    if (error instanceof PlayRefused) metrics.countPlayRefusal(error.reason);
    done();
  });

  const { metricsPort } = app.config;
  if (metricsPort !== 0) {
    let listener: MetricsListener | undefined;
    app.addHook('onReady', async () => {
      listener = await serveMetrics(metricsPort, () => metrics.render());
    });
    app.addHook('onClose', async () => {
      await listener?.close();
    });
  }
}

export default fp(metricsPlugin, { name: 'metrics', dependencies: ['context'] });
