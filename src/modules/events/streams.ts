// The live streams of the users' event logs (`GET /api/user/events`, text/event-stream): one
// process's open streams, woken by the `event_appended` notification that a writer's transaction
// sends when it commits, in any process. The notification carries the event when it fits: a stream
// whose next event it is writes it at once, with no query. Anything else only wakes: the stream
// then reads its log after the last seq it sent, so a lost or duplicated notification loses or
// repeats nothing, and a stream that is told of a seq it already sent asks nothing (an idle stream
// costs no query). A lost LISTEN connection, once listening again, makes every stream read its log.
//
// An open stream is a use of its token: at each heartbeat the streams whose token has gone half
// its idle window (TOKEN_IDLE_TTL_SECONDS) unrenewed slide it, in one statement for them all, so
// a stream never outlives its token's window and an idle stream costs no query in between; a
// stream ends when its token reaches TOKEN_MAX_AGE_SECONDS (the client's reconnect gets a 401).
import { PassThrough, type Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { channels } from '../../db/channels.js';
import type { Database, DatabaseHandle } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { RateLimited } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { ADMIN_LOG, adminEventsAfter, appendedNotice, lastSeqOf, userEventsAfter } from './repository.js';
import { eventView } from './service.js';

/** The heartbeat interval is cut in this many turns, each one writing to its share of the streams. */
const HEARTBEAT_SLICES = 10;

/** What a stream's body buffers before it waits for the client (each side of the PassThrough). */
const STREAM_BUFFER_BYTES = 16 * 1024;

/** Events read from the log per query while a stream catches up. */
const READ_BATCH = 100;

export interface EventStreamsDeps {
  db: Database;
  database: Pick<DatabaseHandle, 'listen'>;
  logger: FastifyBaseLogger;
  heartbeatSeconds: number;
  maxPerUser: number;
  maxStreams: number;
  /** Events a stream may have waiting (its buffers full) before it is disconnected. */
  bufferEvents: number;
  clock: Clock;
  tokenIdleTtlSeconds: number;
  tokenMaxAgeSeconds: number;
  /** Slides the idle window of these tokens (an open stream is a use of its token). */
  keepTokensAlive(tokenIds: number[]): Promise<void>;
}

interface OpenStream {
  /** Whose stream it is (for the per-user limit). */
  userId: number;
  /** The bearer token it was opened with: its revocation (logout) ends the stream. */
  tokenId: number;
  /** When that token was issued (ms): the stream ends at its absolute lifetime. */
  tokenIssuedAtMs: number;
  /** When this stream last slid its token's idle window (ms), or opened (a request just did). */
  renewedAtMs: number;
  /** Its heartbeat group (see `slices`). */
  slice: number;
  /** The log it follows: the user's own, or ADMIN_LOG. */
  log: number;
  /** The last seq written to this stream. */
  sent: number;
  out: PassThrough;
  pumping: boolean;
  /** A wake-up came while pumping: read again once done. */
  again: boolean;
  closed: boolean;
  /** The highest seq this process was told of for the log. */
  known: number;
  /** Set while the pump waits for the client to drain its buffer: what ends that wait. */
  unblock: (() => void) | undefined;
  /** Removes the listener on the client's `gone` signal once the stream is closed. */
  forget: (() => void) | undefined;
}

/** One message of the stream (DESIGN.md "Events"): `id: <seq>` and the event as JSON, no `event:` line. */
function message(event: { id: number }): string {
  return `id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;
}

/**
 * One process's streams and what follows them: the open streams by log and by user, the heartbeat
 * groups and timer, the two LISTENs. Built once by createEventStreams, passed to each step below.
 */
interface Streams {
  deps: EventStreamsDeps;
  heartbeatMs: number;
  maxAgeMs: number;
  renewAfterMs: number;
  /** The open streams by the log they follow (the wake-ups' key). */
  byLog: Map<number, Set<OpenStream>>;
  /** How many streams each user holds, whatever log they follow (the limit's key). */
  perUser: Map<number, number>;
  count: number;
  listening: Promise<() => Promise<void>> | undefined;
  listeningAuth: Promise<() => Promise<void>> | undefined;
  heartbeat: NodeJS.Timeout | undefined;
  /**
   * The streams in HEARTBEAT_SLICES groups, each group's heartbeat due at its own time within the
   * interval: 10,000 writes at once would stall the event loop, and every event waiting behind them.
   */
  slices: Set<OpenStream>[];
  nextSlice: number;
  currentSlice: number;
}

export function createEventStreams(deps: EventStreamsDeps) {
  const heartbeatMs = deps.heartbeatSeconds * 1000;
  const streams: Streams = {
    deps,
    heartbeatMs,
    maxAgeMs: deps.tokenMaxAgeSeconds * 1000,
    // Renewed by the tick that follows half the window, so well before the window closes.
    renewAfterMs: Math.max(0, (deps.tokenIdleTtlSeconds * 1000) / 2 - heartbeatMs),
    byLog: new Map(),
    perUser: new Map(),
    count: 0,
    listening: undefined,
    listeningAuth: undefined,
    heartbeat: undefined,
    slices: Array.from({ length: HEARTBEAT_SLICES }, () => new Set<OpenStream>()),
    nextSlice: 0,
    currentSlice: 0,
  };

  return {
    /**
     * Opens a stream for `userId` that first replays a log after `after` (Last-Event-ID), then
     * follows it: the user's own log, or with `admin` the back office's (the route checks the role).
     * RateLimited past the per-user or per-process limit.
     */
    open(
      who: { id: number; tokenId: number; tokenIssuedAtMs: number },
      after: number,
      admin = false,
      /** Aborted when the client goes away: the stream is released whenever that happens. */
      gone?: AbortSignal,
    ): Promise<{ body: Readable; close(): void }> {
      return open(streams, who, after, admin, gone);
    },

    /** How many streams this process holds open. */
    openCount(): number {
      return streams.count;
    },

    /** Ends every stream (shutdown); clients reconnect elsewhere with Last-Event-ID. */
    async closeAll(): Promise<void> {
      for (const set of [...streams.byLog.values()]) for (const stream of [...set]) close(streams, stream);
      const unlisten = await Promise.all(
        [streams.listening, streams.listeningAuth].map((p) => p?.catch(() => undefined)),
      );
      streams.listening = undefined;
      streams.listeningAuth = undefined;
      for (const stop of unlisten) await stop?.();
    },
  };
}

async function open(
  streams: Streams,
  who: { id: number; tokenId: number; tokenIssuedAtMs: number },
  after: number,
  admin: boolean,
  gone: AbortSignal | undefined,
): Promise<{ body: Readable; close(): void }> {
  const { deps, perUser } = streams;
  const userId = who.id;
  // The slot is taken before the first await, so concurrent opens cannot all pass the limits,
  // and from here every exit path gives it back: a client gone, a failed query, the end.
  if ((perUser.get(userId) ?? 0) >= deps.maxPerUser || streams.count >= deps.maxStreams) {
    throw new RateLimited(deps.heartbeatSeconds, messages.tooManyStreams);
  }
  const log = admin ? ADMIN_LOG : userId;
  const stream: OpenStream = {
    userId,
    tokenId: who.tokenId,
    tokenIssuedAtMs: who.tokenIssuedAtMs,
    renewedAtMs: deps.clock.now().getTime(),
    slice: streams.nextSlice,
    log,
    sent: after,
    // Node 22 raised streams' default buffer from 16 KiB to 64 KiB: this one is set, so a slow
    // client holds as much, and is found as soon, on every supported Node.
    out: new PassThrough({ highWaterMark: STREAM_BUFFER_BYTES }),
    pumping: false,
    again: false,
    closed: false,
    known: after,
    unblock: undefined,
    forget: undefined,
  };
  streams.count += 1;
  perUser.set(userId, (perUser.get(userId) ?? 0) + 1);
  streams.nextSlice = (streams.nextSlice + 1) % HEARTBEAT_SLICES;
  if (gone) {
    const onGone = () => close(streams, stream);
    gone.addEventListener('abort', onGone, { once: true });
    stream.forget = () => gone.removeEventListener('abort', onGone);
    if (gone.aborted) close(streams, stream);
  }
  try {
    await Promise.all([listen(streams), streams.listeningAuth]);
    streams.heartbeat ??= setInterval(() => tick(streams), streams.heartbeatMs / HEARTBEAT_SLICES);
    streams.heartbeat.unref();
    // The first bytes go out at once, so the client knows the stream is open.
    if (!stream.closed) stream.out.write(': connected\n\n');
    if (after > 0 && !stream.closed) {
      // Past the retention: what followed `after` is gone, the client must reload.
      const [first] = await eventsAfter(deps.db, log, after, 1);
      const purged = first ? first.seq > after + 1 : (await lastSeqOf(deps.db, log)) > after;
      if (purged && !stream.closed) stream.out.write(`data: ${JSON.stringify({ type: 'stream.reset' })}\n\n`);
    }
  } catch (error) {
    close(streams, stream);
    throw error;
  }
  // Followed (wake-ups, heartbeats) only once opened, unless the client left meanwhile.
  if (!stream.closed) {
    const set = streams.byLog.get(log) ?? new Set<OpenStream>();
    set.add(stream);
    streams.byLog.set(log, set);
    streams.slices[stream.slice]?.add(stream);
    void pump(streams, stream);
  }
  return { body: stream.out, close: () => close(streams, stream) };
}

function close(streams: Streams, stream: OpenStream): void {
  if (stream.closed) return;
  stream.closed = true;
  streams.count -= 1;
  const held = (streams.perUser.get(stream.userId) ?? 1) - 1;
  if (held === 0) streams.perUser.delete(stream.userId);
  else streams.perUser.set(stream.userId, held);
  const set = streams.byLog.get(stream.log);
  set?.delete(stream);
  if (set?.size === 0) streams.byLog.delete(stream.log);
  streams.slices[stream.slice]?.delete(stream);
  stream.forget?.();
  stream.out.end();
  stream.unblock?.();
  if (streams.count === 0 && streams.heartbeat) {
    clearInterval(streams.heartbeat);
    streams.heartbeat = undefined;
  }
}

/** Writes one event; once the buffers are full, waits until the client drains them (or the stream ends). */
async function send(stream: OpenStream, text: string): Promise<boolean> {
  if (stream.out.write(text)) return !stream.closed;
  await new Promise<void>((resolve) => {
    stream.unblock = resolve;
    stream.out.once('drain', resolve);
  });
  stream.unblock = undefined;
  return !stream.closed;
}

/**
 * A slow client: EVENTS_BUFFER_EVENTS committed and not yet written while its buffers are full.
 * Its stream ends; the client resumes with Last-Event-ID when it can.
 */
function tooSlow(streams: Streams, stream: OpenStream): boolean {
  if (stream.unblock === undefined || stream.known - stream.sent < streams.deps.bufferEvents) return false;
  streams.deps.logger.info(
    { user_id: stream.userId, waiting: stream.known - stream.sent },
    'event stream too slow; ended',
  );
  close(streams, stream);
  stream.out.destroy();
  return true;
}

/** Writes what the log holds after the stream's last seq; again while wake-ups keep coming. */
async function pump(streams: Streams, stream: OpenStream): Promise<void> {
  if (stream.pumping) {
    stream.again = true;
    return;
  }
  stream.pumping = true;
  try {
    do {
      stream.again = false;
      for (;;) {
        const rows = await eventsAfter(streams.deps.db, stream.log, stream.sent, READ_BATCH);
        if (stream.closed) return;
        for (const row of rows) {
          if (!(await send(stream, message(eventView(row))))) return;
          stream.sent = row.seq;
        }
        if (rows.length < READ_BATCH) break;
      }
    } while (stream.again && !stream.closed);
  } catch (error) {
    // The client reconnects with Last-Event-ID and loses nothing: the log is the truth.
    streams.deps.logger.warn(
      { err: error, user_id: stream.userId },
      'event stream could not read its log; closed',
    );
    close(streams, stream);
  } finally {
    stream.pumping = false;
  }
}

function eventsAfter(db: Database, log: number, after: number, limit: number) {
  return log === ADMIN_LOG ? adminEventsAfter(db, after, limit) : userEventsAfter(db, log, after, limit);
}

function onAppended(streams: Streams, payload: string): void {
  const { log, seq, event: text } = appendedNotice(payload);
  const set = streams.byLog.get(log);
  if (!set || !Number.isSafeInteger(seq)) return;
  for (const stream of [...set]) {
    stream.known = Math.max(stream.known, seq);
    if (stream.known <= stream.sent || tooSlow(streams, stream)) continue;
    // The next event of a stream that is idle and not held back: written as it came, no query.
    // Anything else (a gap, a read under way, full buffers, a big event) reads the log.
    if (text !== undefined && seq === stream.sent + 1 && !stream.pumping && !stream.out.writableNeedDrain) {
      stream.out.write(`id: ${seq}\ndata: ${text}\n\n`);
      stream.sent = seq;
    } else void pump(streams, stream);
  }
}

/**
 * What a token stands for changed (the auth triggers' `auth_changed`, migration 0012): a revoked
 * token (logout) ends its streams, a user blocked or given another role all of theirs. `all` (a
 * purge of many dead tokens) ends none: the purge only removes tokens no stream can still hold
 * alive for long, and ending every stream of every process at each purge would be a storm.
 */
function onAuthChanged(streams: Streams, payload: string): void {
  const [kind, raw] = payload.split(':');
  const id = Number(raw);
  if (kind !== 'token' && kind !== 'user') return;
  for (const set of [...streams.byLog.values()]) {
    for (const stream of [...set]) {
      if ((kind === 'token' && stream.tokenId === id) || (kind === 'user' && stream.userId === id))
        close(streams, stream);
    }
  }
}

/**
 * One slice's heartbeat (each stream's comes once per interval): a comment on each of its streams,
 * the tokens' lifetime ended, their idle windows slid.
 */
function tick(streams: Streams): void {
  const { deps } = streams;
  const nowMs = deps.clock.now().getTime();
  const due = new Set<number>();
  streams.currentSlice = (streams.currentSlice + 1) % HEARTBEAT_SLICES;
  for (const stream of [...(streams.slices[streams.currentSlice] ?? [])]) {
    if (nowMs - stream.tokenIssuedAtMs >= streams.maxAgeMs) {
      close(streams, stream);
      continue;
    }
    stream.out.write(': ping\n\n');
    if (nowMs - stream.renewedAtMs >= streams.renewAfterMs) {
      due.add(stream.tokenId);
      stream.renewedAtMs = nowMs;
    }
  }
  if (due.size === 0) return;
  deps.keepTokensAlive([...due]).catch((error: unknown) => {
    // Tried again at the next tick: the window has half of itself left.
    for (const set of streams.byLog.values())
      for (const stream of set) if (due.has(stream.tokenId)) stream.renewedAtMs = 0;
    deps.logger.warn({ err: error, tokens: due.size }, 'event streams could not keep their tokens alive');
  });
}

function listen(streams: Streams): Promise<() => Promise<void>> {
  const { database } = streams.deps;
  streams.listeningAuth ??= database
    .listen(channels.authChanged, (payload) => onAuthChanged(streams, payload))
    .catch((error: unknown) => {
      streams.listeningAuth = undefined;
      throw error;
    });
  streams.listening ??= database
    .listen(channels.eventAppended, (payload) => onAppended(streams, payload), {
      lost() {},
      // Notifications may have been missed meanwhile: every stream reads its log.
      restored() {
        for (const set of streams.byLog.values()) for (const stream of set) void pump(streams, stream);
      },
    })
    .catch((error: unknown) => {
      streams.listening = undefined;
      throw error;
    });
  return streams.listening;
}

export type EventStreams = ReturnType<typeof createEventStreams>;
