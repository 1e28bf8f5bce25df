// Once the app is closing, responses say `Connection: close`: a keep-alive client whose request was
// in flight then lets its socket go, instead of holding the server open until its keep-alive
// timeout (Node closes only the connections that are idle when closing starts).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

async function gracefulClosePlugin(app: FastifyInstance): Promise<void> {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}

export default fp(gracefulClosePlugin, { name: 'graceful-close' });
