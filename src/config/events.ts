// The event logs and their live streams: how long events are kept, and what one process and one
// user may hold open.
import { type Static, Type } from 'typebox';
import { wholeNumber } from '../lib/env-settings.js';

export const EventsSettings = Type.Object({
  eventsRetentionDays: wholeNumber('EVENTS_RETENTION_DAYS', {
    default: 7,
    minimum: 1,
    maximum: 366,
    description: 'Days the event logs keep an event before housekeeping purges it.',
  }),
  eventsHeartbeatSeconds: wholeNumber('EVENTS_HEARTBEAT_SECONDS', {
    default: 15,
    minimum: 1,
    maximum: 300,
    description: 'Seconds between the comment lines an event stream sends, so proxies keep it open.',
  }),
  eventsMaxStreamsPerUser: wholeNumber('EVENTS_MAX_STREAMS_PER_USER', {
    default: 3,
    minimum: 1,
    maximum: 100,
    description:
      'Event streams one user may hold open in one process (429 past it, whatever RATE_LIMIT says).',
  }),
  eventsMaxStreams: wholeNumber('EVENTS_MAX_STREAMS', {
    default: 10_000,
    minimum: 1,
    maximum: 1_000_000,
    description: 'Event streams one process holds open at most (429 past it).',
  }),
  eventsBufferEvents: wholeNumber('EVENTS_BUFFER_EVENTS', {
    default: 100,
    minimum: 1,
    maximum: 100_000,
    description: 'Events waiting for a slow stream (past what the socket holds) before it is disconnected.',
  }),
});
export type EventsConfig = Static<typeof EventsSettings>;
