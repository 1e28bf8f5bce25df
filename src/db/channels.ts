// The LISTEN/NOTIFY channels, named once: a writer notifies, a background loop or a token cache in
// any process listens (in-process on PGlite). A notification is only a wake-up: whoever listens
// reads the rows it is about, so a lost one delays and never loses work.
export const channels = {
  /** A pronostic waits for its analysis (payload: its id). */
  pronosticCreated: 'pronostic_created',
  /** A payment waits for the provider's word (payload: its id). */
  paymentCreated: 'payment_created',
  /** A token or an account changed: token caches drop what they hold (payload: see token-cache.ts). */
  authChanged: 'auth_changed',
  /**
   * An event was appended to a log (payload: `<user id>:<seq>`, user id 0 for the back office's).
   * Sent inside the writing transaction, so PostgreSQL delivers it only once that commits.
   */
  eventAppended: 'event_appended',
} as const;

export type Channel = (typeof channels)[keyof typeof channels];

/** Sends wake-ups; a lost one is logged and forgiven (the loops also poll). */
export interface Wakeups {
  send(channel: Channel, payload: string): void;
}

export function wakeupsOver(
  database: { notify(channel: string, payload: string): Promise<void> },
  logger: { warn(details: object, message: string): void },
): Wakeups {
  return {
    send(channel, payload) {
      database.notify(channel, payload).catch((error: unknown) => {
        // The loop's poll finds the row anyway; a lost wake-up only delays it.
        logger.warn({ err: error, channel, payload }, 'could not send a wake-up');
      });
    },
  };
}
