// Writes that many requests would each make, gathered in memory and made as one: at the latest
// `delayMs` after the first one gathered, at close, and whenever a reader asks for them first.
// Used where one statement a request was a large share of the request's CPU and a queue on a hot
// row (the slip checks' daily count, decision 0165; the tokens' last use, decision 0166). A write
// that fails keeps what it held for the next one; only a failure at close loses it.

export interface WriteBehindOptions<Batch> {
  /** How long the first thing gathered may wait for its write. */
  delayMs: number;
  /** Takes what was gathered (leaving nothing behind), or undefined when nothing was. */
  take(): Batch | undefined;
  /** Gives back a batch whose write failed, merged with what was gathered since. */
  giveBack(batch: Batch): void;
  /** The one statement that writes a batch. */
  write(batch: Batch): Promise<void>;
  /** Says a write that failed (its batch was kept). */
  failed(error: unknown): void;
}

export interface WriteBehind {
  /** Something was gathered: a write is due within `delayMs`. */
  due(): void;
  /** Writes what was gathered now; a failure keeps it (tried again a delay later), and is thrown. */
  write(): Promise<void>;
  /** `write`, a failure said rather than thrown (a reader about to look). */
  writeOrSay(): Promise<void>;
  /** The last write (the process is closing: a failure loses what it held). */
  close(): Promise<void>;
}

export function writeBehind<Batch>(options: WriteBehindOptions<Batch>): WriteBehind {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  function due(): void {
    if (closed) return;
    // One timer for everything gathered.
    timer ??= setTimeout(() => void writeOrSay(), options.delayMs);
    timer.unref();
  }

  async function write(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const batch = options.take();
    if (batch === undefined) return;
    try {
      await options.write(batch);
    } catch (error) {
      options.giveBack(batch);
      due();
      throw error;
    }
  }

  async function writeOrSay(): Promise<void> {
    await write().catch((error: unknown) => options.failed(error));
  }

  return {
    due,
    write,
    writeOrSay,
    async close() {
      closed = true;
      await writeOrSay();
    },
  };
}
