// The reference for the history workload (issue 28): what bench/http/reference-server.ts is for the
// list and detail, for `GET /api/user/wallet/operations` filtered by type or currency: bare Fastify
// and a node-postgres pool of the same size, plain parameterized queries (unnamed), the same token
// check as the reference server (copied: that server stays as it was, the yardstick of issue 28),
// the page and its count in parallel, the same fields in the same envelope. Started by
// bench/http/run.ts as a child process.
import Fastify from 'fastify';
import pg from 'pg';
import { keyedHash } from '../../src/lib/crypto.js';

const url = process.env.REF_DATABASE_URL as string;
const secret = process.env.REF_APP_SECRET as string;
const port = Number(process.env.REF_PORT ?? 0);
const IDLE_MS = 600_000;
const MAX_AGE_MS = 30 * 24 * 3600 * 1000;
const TOUCH_MS = 15_000;

const pool = new pg.Pool({ connectionString: url, max: 10, options: '-c TimeZone=UTC' });
const app = Fastify({ logger: false });

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
const COLUMNS = `id, type, currency, amount, balance_after, description, reference,
  to_char(created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at`;

class Unauthenticated extends Error {}

async function authenticate(header: string | undefined): Promise<{ id: number }> {
  const match = header ? /^Bearer ([A-Za-z0-9_-]{20,128})$/.exec(header.trim()) : null;
  if (!match?.[1]) throw new Unauthenticated();
  const { rows } = await pool.query(
    `SELECT t.id, t.last_used_at, t.created_at, u.id AS user_id, u.status
       FROM access_tokens t JOIN users u ON u.id = t.user_id
      WHERE t.token_hash = $1 AND t.revoked_at IS NULL LIMIT 1`,
    [keyedHash(secret, 'token', match[1])],
  );
  const row = rows[0];
  if (row?.status !== 'active') throw new Unauthenticated();
  const now = Date.now();
  if (now - new Date(row.created_at).getTime() >= MAX_AGE_MS) throw new Unauthenticated();
  const idle = now - new Date(row.last_used_at).getTime();
  if (idle >= IDLE_MS - TOUCH_MS) throw new Unauthenticated();
  if (idle >= TOUCH_MS)
    await pool.query('UPDATE access_tokens SET last_used_at = now() WHERE id = $1', [row.id]);
  return { id: row.user_id };
}

app.setErrorHandler((error, _request, reply) => {
  if (error instanceof Unauthenticated) {
    return reply.code(401).send({ user: null, message: 'Non authentifié.', data: [], errors: [] });
  }
  return reply.code(500).send({ user: null, message: String(error), data: [], errors: [] });
});

app.get('/api/user/wallet/operations', async (request) => {
  const user = await authenticate(request.headers.authorization);
  const query = request.query as { page?: string; per_page?: string; type?: string; currency?: string };
  const page = Number(query.page ?? 1);
  const perPage = Number(query.per_page ?? 10);
  const params: unknown[] = [user.id];
  let filter = '';
  if (query.type) {
    params.push(query.type);
    filter += ` AND type = $${params.length}`;
  }
  if (query.currency) {
    params.push(query.currency);
    filter += ` AND currency = $${params.length}`;
  }
  const n = params.length;
  const [rows, count] = await Promise.all([
    pool.query(
      `SELECT ${COLUMNS} FROM wallet_operations WHERE user_id = $1${filter}
        ORDER BY created_at DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, perPage, (page - 1) * perPage],
    ),
    pool.query(`SELECT count(*)::int AS total FROM wallet_operations WHERE user_id = $1${filter}`, params),
  ]);
  const total = count.rows[0].total as number;
  const last = Math.max(1, Math.ceil(total / perPage));
  return {
    user: { id: user.id },
    message: 'Historique de vos opérations.',
    data: {
      operations: rows.rows,
      meta: { current_page: page, last_page: last, per_page: perPage, total, has_more: page < last },
    },
    errors: [],
  };
});

const address = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`listening ${address}\n`);
const stop = async () => {
  await app.close();
  await pool.end();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
