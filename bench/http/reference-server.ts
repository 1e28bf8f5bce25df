// The hand-written minimal server the service is measured against: bare Fastify and a node-postgres
// pool of the same size, plain parameterized queries (unnamed), no framework of ours. It does what
// the service's list, search and detail do: the same token check (hash lookup joined to the user,
// status, absolute lifetime, idle window, the throttled last_used_at write), the same page and
// count, the same fields in the same envelope. Started by bench/http/run.ts as a child process.
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
const COLUMNS = `p.id, p.type_id, p.status, p.credits_cost, p.teams_details, p.result, p.ai_model,
  to_char(p.created_at AT TIME ZONE 'UTC', ${ISO}) AS created_at`;

interface Caller {
  id: number;
  phone: string;
}

class Unauthenticated extends Error {}

async function authenticate(header: string | undefined): Promise<Caller> {
  const match = header ? /^Bearer ([A-Za-z0-9_-]{20,128})$/.exec(header.trim()) : null;
  if (!match?.[1]) throw new Unauthenticated();
  const { rows } = await pool.query(
    `SELECT t.id, t.last_used_at, t.created_at, u.id AS user_id, u.phone, u.status
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
  return { id: row.user_id, phone: row.phone };
}

app.setErrorHandler((error, _request, reply) => {
  if (error instanceof Unauthenticated) {
    return reply.code(401).send({ user: null, message: 'Non authentifié.', data: [], errors: [] });
  }
  return reply.code(500).send({ user: null, message: String(error), data: [], errors: [] });
});

function meta(page: number, perPage: number, total: number) {
  const last = Math.max(1, Math.ceil(total / perPage));
  return { current_page: page, last_page: last, per_page: perPage, total, has_more: page < last };
}

app.get('/api/user/pronostics', async (request) => {
  const user = await authenticate(request.headers.authorization);
  const query = request.query as { page?: string; per_page?: string; search?: string };
  const page = Number(query.page ?? 1);
  const perPage = Number(query.per_page ?? 10);
  const search = query.search ? `%${query.search.toLowerCase()}%` : undefined;
  const filter = search ? 'AND p.search_text LIKE $2' : '';
  const params = search ? [user.id, search] : [user.id];
  const n = params.length;
  const [rows, count] = await Promise.all([
    pool.query(
      `SELECT ${COLUMNS} FROM pronostics p WHERE p.user_id = $1 AND p.deleted_at IS NULL ${filter}
        ORDER BY p.created_at DESC, p.id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...params, perPage, (page - 1) * perPage],
    ),
    pool.query(
      `SELECT count(*)::int AS total FROM pronostics p WHERE p.user_id = $1 AND p.deleted_at IS NULL ${filter}`,
      params,
    ),
  ]);
  return {
    user: { id: user.id, phone: user.phone },
    message: 'Liste de vos pronostics.',
    data: { pronostics: rows.rows, meta: meta(page, perPage, count.rows[0].total) },
    errors: [],
  };
});

app.get('/api/user/pronostic/:id', async (request, reply) => {
  const user = await authenticate(request.headers.authorization);
  const id = Number((request.params as { id: string }).id);
  const { rows } = await pool.query(
    `SELECT ${COLUMNS}, p.user_id, t.name AS type_name, t.slug AS type_slug, t.difficulty AS type_difficulty
       FROM pronostics p JOIN pronostic_types t ON t.id = p.type_id
      WHERE p.id = $1 AND p.deleted_at IS NULL LIMIT 1`,
    [id],
  );
  const row = rows[0];
  if (!row)
    return reply.code(404).send({ user: null, message: 'Pronostic introuvable.', data: [], errors: [] });
  if (row.user_id !== user.id) {
    return reply
      .code(403)
      .send({ user: null, message: 'Ce pronostic ne vous appartient pas.', data: [], errors: [] });
  }
  const { user_id: _owner, type_name, type_slug, type_difficulty, ...pronostic } = row;
  return {
    user: { id: user.id },
    message: 'Détail du pronostic.',
    data: {
      pronostic: {
        ...pronostic,
        type: { id: row.type_id, name: type_name, slug: type_slug, difficulty: type_difficulty },
      },
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
