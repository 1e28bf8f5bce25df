// Following an event stream (`GET /api/user/events`, or `/api/admin/events` for an admin) the way
// a client should: fetch with the bearer token (EventSource cannot send one), the Server-Sent
// Events text parsed as it arrives, and on a dropped connection a reconnect after a growing,
// jittered delay with `Last-Event-ID`, so the log's replay fills the gap and nothing is handled
// twice. A 401 or 403 ends it (sign in again); a 429 waits the `Retry-After` it was given. Both
// web apps read their streams with it (webapp/src/live.ts, console/src/live.ts).
import { ApiError } from './client.js';
import type { paths } from './schema.js';

type HistoryData =
  paths['/api/user/events/history']['get']['responses'][200]['content']['application/json']['data'];
type AdminHistoryData =
  paths['/api/admin/events/history']['get']['responses'][200]['content']['application/json']['data'];

/** One event of a user's log: `id` is its seq. */
export type UserEvent = HistoryData['events'][number];
/** One event of the back office's log. */
export type AdminEvent = AdminHistoryData['events'][number];

export interface FollowEventsOptions<E> {
  /** The service's origin, e.g. `https://api.example.com`. */
  baseUrl: string;
  /** The bearer token, or a function read before every (re)connection. */
  token: string | (() => string | null | undefined);
  /**
   * The last seq the client has handled (0 or absent: the whole log the retention keeps); `'now'`
   * skips what the log already holds: the first connection starts after the log's last seq, asked
   * of its history route (`…/events/history`) just before.
   */
  lastEventId?: number | 'now';
  /** More headers for every request (e.g. Accept-Language, for refusals in the screen's language). */
  headers?: Record<string, string> | (() => Record<string, string>);
  /** Called once per event, in seq order; the next waits for a returned promise. */
  onEvent(event: E): void | Promise<void>;
  /** The log no longer holds what followed `lastEventId` (retention): reload, then carry on. */
  onReset?(): void | Promise<void>;
  /** Each time a connection opens (200). */
  onOpen?(): void;
  /** A connection failed or ended; the next try is in `retryInMs`. */
  onDisconnect?(error: unknown, retryInMs: number): void;
  /** Another fetch (tests, React Native polyfills). */
  fetch?: typeof fetch;
  /** First and longest wait between reconnections (default 1 s and 30 s). */
  retry?: { initialMs?: number; maxMs?: number };
}

export interface EventFollower {
  /** The last seq handled: what a new follower would pass as `lastEventId`. */
  lastEventId(): number;
  /** Stops following (the current connection is aborted). */
  close(): void;
  /** Settles once closed: resolves after `close()`, rejects with the ApiError of a 401 or 403. */
  done: Promise<void>;
}

interface Message {
  id: string | undefined;
  data: string;
}

/** Splits a Server-Sent Events text into its messages as chunks arrive (comments ignored). */
export class EventStreamParser {
  private buffer = '';
  private data: string[] = [];
  private id: string | undefined;
  /** The last chunk ended with a CR: a LF opening the next one is the same line end (CRLF). */
  private pendingLineFeed = false;

  /** The messages completed by this chunk. */
  push(chunk: string): Message[] {
    if (this.pendingLineFeed && chunk !== '') {
      this.pendingLineFeed = false;
      if (chunk.startsWith('\n')) chunk = chunk.slice(1);
    }
    this.buffer += chunk;
    const done: Message[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      if (end < 0) break;
      const line = this.buffer.slice(0, end);
      const crlf = this.buffer.startsWith('\r\n', end);
      if (!crlf && end === this.buffer.length - 1 && this.buffer[end] === '\r') this.pendingLineFeed = true;
      this.buffer = this.buffer.slice(end + (crlf ? 2 : 1));
      if (line === '') {
        if (this.data.length > 0) done.push({ id: this.id, data: this.data.join('\n') });
        this.data = [];
        this.id = undefined;
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.data.push(value);
      else if (field === 'id') this.id = value;
    }
    return done;
  }
}

/**
 * The wait before reconnection `attempt` (0 for the first): doubling from `initialMs` up to
 * `maxMs`, spread over its upper half so that clients dropped together do not come back together.
 */
export function retryDelay(
  attempt: number,
  retry: { initialMs: number; maxMs: number },
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(retry.maxMs, retry.initialMs * 2 ** Math.min(attempt, 16));
  return ceiling / 2 + random() * (ceiling / 2);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

function follow<E extends { id: number }>(path: string, options: FollowEventsOptions<E>): EventFollower {
  const doFetch = options.fetch ?? fetch;
  const retry = { initialMs: options.retry?.initialMs ?? 1000, maxMs: options.retry?.maxMs ?? 30_000 };
  const stop = new AbortController();
  let last = options.lastEventId === 'now' ? undefined : (options.lastEventId ?? 0);
  let handled = 0;
  const url = `${options.baseUrl.replace(/\/+$/, '')}${path}`;

  function headersOf(accept: string): Record<string, string> {
    const extra = typeof options.headers === 'function' ? options.headers() : options.headers;
    const token = typeof options.token === 'function' ? options.token() : options.token;
    return { ...extra, accept, ...(token ? { authorization: `Bearer ${token}` } : {}) };
  }

  /** A refusal as an ApiError: final for a 401 or 403, else with the wait its Retry-After asks. */
  async function refusal(response: Response): Promise<ApiError> {
    const body = await response.json().catch(() => undefined);
    const error = new ApiError(response.status, body);
    if (response.status === 401 || response.status === 403) return Object.assign(error, { final: true });
    const retryAfter = Number(response.headers.get('retry-after'));
    return Object.assign(error, { waitMs: Number.isFinite(retryAfter) ? retryAfter * 1000 : 0 });
  }

  /** The log's last seq, for a follower that starts now. */
  async function latestSeq(): Promise<number> {
    const response = await doFetch(`${url}/history?after=0&per_page=1`, {
      headers: headersOf('application/json'),
      signal: stop.signal,
    });
    if (!response.ok) throw await refusal(response);
    const body = (await response.json()) as { data: { meta: { last_seq: number } } };
    return body.data.meta.last_seq;
  }

  /** One connection, read to its end; what the next wait should be at least (Retry-After). */
  async function connectOnce(): Promise<number> {
    last ??= await latestSeq();
    const headers = headersOf('text/event-stream');
    if (last > 0) headers['last-event-id'] = String(last);
    const response = await doFetch(url, { headers, signal: stop.signal });
    if (!response.ok || !response.body) throw await refusal(response);
    options.onOpen?.();
    const parser = new EventStreamParser();
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return 0;
      for (const message of parser.push(decoder.decode(value, { stream: true }))) {
        const parsed = JSON.parse(message.data) as { type?: unknown };
        if (message.id === undefined) {
          if (parsed.type === 'stream.reset') await options.onReset?.();
          continue;
        }
        const event = parsed as E;
        // A replay never repeats what was handled; this guards a server that would.
        if (event.id <= last) continue;
        await options.onEvent(event);
        last = event.id;
        handled += 1;
      }
    }
  }

  const done = (async () => {
    let attempt = 0;
    while (!stop.signal.aborted) {
      const before = handled;
      let waitAtLeast = 0;
      let failure: unknown;
      try {
        waitAtLeast = await connectOnce();
      } catch (error) {
        if (stop.signal.aborted) break;
        if ((error as { final?: boolean }).final) throw error;
        failure = error;
        waitAtLeast = (error as { waitMs?: number }).waitMs ?? 0;
      }
      if (stop.signal.aborted) break;
      // A connection that delivered something starts the delays over.
      attempt = handled > before ? 0 : attempt + 1;
      const wait = Math.max(waitAtLeast, retryDelay(attempt, retry));
      options.onDisconnect?.(failure ?? new Error('the event stream ended'), wait);
      await sleep(wait, stop.signal);
    }
  })();

  return {
    lastEventId: () => last ?? 0,
    close: () => stop.abort(),
    done,
  };
}

/** Follows the signed-in user's events (`GET /api/user/events`). */
export function followEvents(options: FollowEventsOptions<UserEvent>): EventFollower {
  return follow('/api/user/events', options);
}

/** Follows the back office's events (`GET /api/admin/events`, admins only). */
export function followAdminEvents(options: FollowEventsOptions<AdminEvent>): EventFollower {
  return follow('/api/admin/events', options);
}
