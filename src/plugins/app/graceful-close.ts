// Closing lets every request in flight finish, then lets go of every connection at once. Node's
// close ends the keep-alive connections idle when closing starts, and those whose answer ends
// during the close; it would wait out
//   - a keep-alive client whose request is in flight: once closing, answers say `Connection: close`;
//   - a connection that has sent no request yet (a client's preconnect, a balancer's probe): Node
//     counts it busy until its headers timeout, a minute; it is destroyed when closing starts.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

async function gracefulClosePlugin(app: FastifyInstance): Promise<void> {
  let closing = false;
  /** Each open connection's answers under way: 0 for one between requests or before its first. */
  const answering = new Map<Socket, number>();

  app.server.on('connection', (socket: Socket) => {
    answering.set(socket, 0);
    socket.once('close', () => answering.delete(socket));
  });
  app.server.on('request', (request, response) => {
    const socket = request.socket;
    const under = answering.get(socket);
    if (under === undefined) return;
    answering.set(socket, under + 1);
    response.once('close', () => {
      const left = answering.get(socket);
      if (left !== undefined) answering.set(socket, left - 1);
    });
  });

  app.addHook('preClose', async () => {
    closing = true;
    for (const [socket, under] of answering) if (under === 0) socket.destroy();
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
}

export default fp(gracefulClosePlugin, { name: 'graceful-close' });
