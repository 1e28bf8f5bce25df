// The user's events, live, for the screens that wait on one (an analysis, a payment): EventSource
// on `GET /api/user/events?stream_key=…`, the key asked with the bearer token just before (single
// use, 60 s: EventSource cannot send a token). A dropped stream is opened again with a new key after
// a growing wait; `onOpen` runs at every opening so the screen reads the state it waits on once
// more: whatever happened while the stream was down is never missed, and events are only triggers.
import { api, dataOf } from './api.js';

export interface LiveEvent {
  id: number;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

export function followUserEvents(handlers: { onEvent(event: LiveEvent): void; onOpen(): void }): () => void {
  let source: EventSource | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let attempt = 0;
  let stopped = false;

  const open = async () => {
    if (stopped) return;
    try {
      const { stream_key } = await dataOf(api.POST('/api/user/events/key'));
      if (stopped) return;
      const url = new URL('/api/user/events', location.origin);
      url.searchParams.set('stream_key', stream_key);
      source = new EventSource(url);
      source.onopen = () => {
        attempt = 0;
        handlers.onOpen();
      };
      source.onmessage = (message) => handlers.onEvent(JSON.parse(message.data as string) as LiveEvent);
      source.onerror = () => {
        // The key is spent: EventSource's own retry would be refused. A new key, after a wait.
        source?.close();
        retry();
      };
    } catch {
      retry();
    }
  };
  const retry = () => {
    if (stopped) return;
    attempt += 1;
    const wait = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5)) * (0.8 + 0.4 * Math.random());
    timer = setTimeout(() => void open(), wait);
  };

  void open();
  return () => {
    stopped = true;
    clearTimeout(timer);
    source?.close();
  };
}
