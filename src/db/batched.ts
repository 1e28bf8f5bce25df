// The hottest point reads asked by many requests at once, run as one statement. Under load the
// event loop reads a round of sockets before it turns to timers and I/O again; what that round
// asks of one statement is gathered (DataLoader, dispatched at setImmediate) and sent together,
// each caller given its own rows. On PostgreSQL every statement is a write to the database's
// socket and a wake of its process: a third of a detail request's CPU in a profile under load
// (issue 57, docs/performance.md), shared now by the round. Alone (a quiet server, a
// transaction), a call runs the plain statement as before.
import DataLoader from 'dataloader';
import { type Executor, type NamedStatement, namedQuery } from './client.js';

/**
 * A statement's parameters' PostgreSQL types, in order ($1, $2, …): their arrays are unnested. An
 * array parameter (`int4[]`: a list of numbers, as a slip's ids) travels as its text, since
 * `unnest` would flatten an array of arrays.
 */
export type ParameterTypes = readonly string[];

/** A hot read's fixed statement that can be gathered: its parameters' types beside its text. */
export interface GatheredStatement extends NamedStatement {
  types: ParameterTypes;
}

const isArrayType = (type: string) => type.endsWith('[]');

/** A list of numbers as PostgreSQL's array literal; undefined for anything else. */
function arrayLiteral(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  for (const item of value) if (typeof item !== 'number' || !Number.isFinite(item)) return undefined;
  return `{${value.join(',')}}`;
}

/** Calls gathered into one statement at most; a longer round is sent as several. */
const MAX_BATCH = 64;

/**
 * The gathered form of `statement`: one row of parameters per call (arrays unnested, the call's
 * ordinal beside them), the statement run for each row as a LATERAL subquery (a nested loop: each
 * call's plan is the one it has alone, its rows in its own order; no outer ORDER BY, whose sort
 * need not keep them so), each row tagged with its call.
 * The statement's `$n` become the row's columns; it must hold no `$` of its own elsewhere.
 */
export function batchedStatement({ name, text, types }: GatheredStatement): NamedStatement {
  const columns = types.map((_, i) => `p${i + 1}`);
  const arrays = types.map((type, i) => `$${i + 1}::${isArrayType(type) ? 'text' : type}[]`).join(', ');
  const inner = text.replace(/\$(\d+)\b/g, (_, n: string) => {
    const type = types[Number(n) - 1]!;
    return isArrayType(type) ? `q.p${n}::${type}` : `q.p${n}`;
  });
  return {
    name: `${name}_batched`,
    text: `SELECT q.ordinal AS "batchOrdinal", r.*
      FROM unnest(${arrays}) WITH ORDINALITY AS q(${columns.join(', ')}, ordinal)
      CROSS JOIN LATERAL (${inner}) r`,
  };
}

type Loader = DataLoader<unknown[], unknown[]>;

/** One loader per database handle and statement (a handle is one pool or one PGlite). */
const loaders = new WeakMap<object, Map<string, Loader>>();

function loaderOf(db: Executor, statement: GatheredStatement): Loader {
  let byStatement = loaders.get(db);
  if (!byStatement) {
    byStatement = new Map();
    loaders.set(db, byStatement);
  }
  let loader = byStatement.get(statement.name);
  if (!loader) {
    const batched = batchedStatement(statement);
    const { types } = statement;
    loader = new DataLoader<unknown[], unknown[]>(
      async (calls) => {
        if (calls.length === 1) return [await namedQuery(db, statement, calls[0]!)];
        let rows: (Record<string, unknown> & { batchOrdinal: string | number })[];
        try {
          rows = await namedQuery(
            db,
            batched,
            types.map((_, i) => calls.map((values) => values[i])),
          );
        } catch {
          // One caller's values must not fail the others' (nor name a statement they never ran):
          // each alone, with its own answer or error.
          return Promise.all(
            calls.map((values) => namedQuery(db, statement, values).catch((error: Error) => error)),
          );
        }
        const answers: unknown[][] = calls.map(() => []);
        for (const { batchOrdinal, ...row } of rows) answers[Number(batchOrdinal) - 1]!.push(row);
        return answers;
      },
      // Fresh reads: nothing is kept between rounds (`cache: false`), only gathered within one.
      { cache: false, maxBatchSize: MAX_BATCH, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
    );
    byStatement.set(statement.name, loader);
  }
  return loader;
}

/**
 * `namedQuery`, gathered with the same statement's other calls of this round of the event loop
 * (an array parameter sent as its literal, alone or gathered: the statement reads it either way).
 * Inside a transaction the call is its connection's own and runs alone; so does one whose array
 * parameter is not a list of numbers.
 */
export async function batchedQuery<Row>(
  db: Executor,
  statement: GatheredStatement,
  values: unknown[],
): Promise<Row[]> {
  if (!('$client' in db)) return namedQuery<Row>(db, statement, values);
  const sent = statement.types.map((type, i) => (isArrayType(type) ? arrayLiteral(values[i]) : values[i]));
  if (sent.includes(undefined)) return namedQuery<Row>(db, statement, values);
  return (await loaderOf(db, statement).load(sent)) as Row[];
}
