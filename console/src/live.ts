// Live updates: the back office's event stream (`GET /api/admin/events`, text/event-stream). It is
// read with fetch and a ReadableStream parser rather than EventSource, which cannot send the
// Authorization header. The first connection starts after the log's last seq (asked of the history
// route), so nothing old is replayed; each later one sends Last-Event-ID and gets what it missed.
// A dropped stream reconnects with a growing delay (1 s doubling to 30 s, with jitter; a 429's
// Retry-After when given); a 401 ends the session, a 403 stops trying. Screens subscribe to the
// event types they show and reload their data: the API stays the only source of what is on screen.
import { createContext } from 'preact';
import { useContext, useEffect, useRef } from 'preact/hooks';
import { ApiError, api, dataOf, session } from './api.js';
import { locale } from './i18n.js';
import { backoff, sseParser } from './sse.js';

export interface AdminEvent {
  id?: number;
  type: string;
  created_at?: string;
  data?: Record<string, unknown>;
}

export type LiveState = 'connecting' | 'live' | 'retrying' | 'stopped';

export interface LiveOptions {
  onEvent(event: AdminEvent): void;
  onState(state: LiveState): void;
  onSignedOut(): void;
}

class StreamRefused extends Error {
  constructor(
    readonly status: number,
    readonly retryAfterMs: number | undefined,
  ) {
    super(`event stream answered ${status}`);
  }
}

/** Opens the admin event stream and keeps it open until the returned function is called. */
export function connectLive(options: LiveOptions): () => void {
  let stopped = false;
  let controller: AbortController | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last: number | undefined;
  let attempt = 0;

  async function once(): Promise<void> {
    if (last === undefined) {
      const history = await dataOf(
        api.GET('/api/admin/events/history', { params: { query: { after: 0, per_page: 1 } } }),
      );
      last = history.meta.last_seq;
    }
    controller = new AbortController();
    const token = session.token();
    const response = await fetch('/api/admin/events', {
      headers: {
        accept: 'text/event-stream',
        'accept-language': locale,
        'last-event-id': String(last),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      cache: 'no-store',
      signal: controller.signal,
    });
    if (!response.ok || !response.body) {
      const seconds = Number(response.headers.get('retry-after'));
      await response.body?.cancel().catch(() => undefined);
      throw new StreamRefused(
        response.status,
        Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined,
      );
    }
    attempt = 0;
    options.onState('live');
    const parse = sseParser((message) => {
      let event: AdminEvent;
      try {
        event = JSON.parse(message.data) as AdminEvent;
      } catch {
        return;
      }
      if (message.id !== undefined && /^\d+$/.test(message.id)) last = Number(message.id);
      options.onEvent(event);
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      parse(value);
    }
  }

  async function run(): Promise<void> {
    if (stopped) return;
    options.onState(attempt === 0 && last === undefined ? 'connecting' : 'retrying');
    let wait: number | undefined;
    try {
      await once();
      // The server ended the stream (a restart, a slow reader): back at once, with Last-Event-ID.
      wait = backoff(0);
    } catch (error) {
      if (stopped) return;
      const status = error instanceof StreamRefused || error instanceof ApiError ? error.status : 0;
      if (status === 401) {
        stopped = true;
        options.onState('stopped');
        options.onSignedOut();
        return;
      }
      if (status === 403) {
        stopped = true;
        options.onState('stopped');
        return;
      }
      wait = (error instanceof StreamRefused ? error.retryAfterMs : undefined) ?? backoff(attempt);
      attempt += 1;
    }
    if (stopped) return;
    options.onState('retrying');
    timer = setTimeout(run, wait);
  }

  void run();
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    controller?.abort();
  };
}

export interface Live {
  state: LiveState;
  subscribe(listener: (event: AdminEvent) => void): () => void;
}

export const LiveContext = createContext<Live>({ state: 'stopped', subscribe: () => () => {} });

/**
 * Calls `handler` for each event of `types` (or a `stream.reset`, after which anything may have
 * changed) while the screen is shown.
 */
export function useLive(types: readonly string[], handler: (event: AdminEvent) => void): void {
  const live = useContext(LiveContext);
  const current = useRef(handler);
  current.current = handler;
  const key = types.join(',');
  useEffect(
    () =>
      live.subscribe((event) => {
        if (event.type === 'stream.reset' || types.includes(event.type)) current.current(event);
      }),
    [live, key],
  );
}
