// The write-behind helper (src/lib/write-behind.ts): what many requests gathered is written in one
// call at most a delay after the first, at once when a reader asks, and at close; a failed write
// keeps its batch for the next one, and nothing is scheduled once closed.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeBehind } from '../../src/lib/write-behind.js';

function counter(options: { failures?: number } = {}) {
  let gathered = 0;
  let failures = options.failures ?? 0;
  const writes: number[] = [];
  const said: unknown[] = [];
  const behind = writeBehind<number>({
    delayMs: 1_000,
    take() {
      const batch = gathered;
      gathered = 0;
      return batch === 0 ? undefined : batch;
    },
    giveBack(batch) {
      gathered += batch;
    },
    async write(batch) {
      if (failures > 0) {
        failures -= 1;
        throw new Error('database away');
      }
      writes.push(batch);
    },
    failed: (error) => said.push(error),
  });
  const add = (n: number) => {
    gathered += n;
    behind.due();
  };
  return { behind, add, writes, said, gathered: () => gathered };
}

describe('writeBehind', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes everything gathered in one call, the delay after the first', async () => {
    const c = counter();
    c.add(1);
    await vi.advanceTimersByTimeAsync(600);
    c.add(2);
    c.add(3);
    expect(c.writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(400);
    expect(c.writes).toEqual([6]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(c.writes).toEqual([6]);
  });

  it('writes at once when asked, and the timer then finds nothing', async () => {
    const c = counter();
    c.add(4);
    await c.behind.write();
    expect(c.writes).toEqual([4]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(c.writes).toEqual([4]);
  });

  it('keeps a failed batch with what came since, says it, and writes them together a delay later', async () => {
    const c = counter({ failures: 1 });
    c.add(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(c.writes).toEqual([]);
    expect(c.said).toHaveLength(1);
    c.add(5);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(c.writes).toEqual([7]);
    expect(c.gathered()).toBe(0);
  });

  it('throws to a caller that asked, the batch kept', async () => {
    const c = counter({ failures: 1 });
    c.add(3);
    await expect(c.behind.write()).rejects.toThrow('database away');
    expect(c.gathered()).toBe(3);
    await c.behind.writeOrSay();
    expect(c.writes).toEqual([3]);
  });

  it('writes what is left at close, and schedules nothing after', async () => {
    const c = counter();
    c.add(1);
    await c.behind.close();
    expect(c.writes).toEqual([1]);
    c.add(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(c.writes).toEqual([1]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
