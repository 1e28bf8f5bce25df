// HEAP_GROWING_PERCENT reaches V8 as --heap-growing-percent (its effect on the resident memory
// under load is measured by bench:http, see docs/performance.md), and 0 leaves V8's own factor.
import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { limitHeapGrowth } from '../../src/lib/heap-growth.js';

afterEach(() => vi.restoreAllMocks());

describe('heap growth', () => {
  it('hands the percentage to V8, and nothing for 0', () => {
    const setFlags = vi.spyOn(v8, 'setFlagsFromString').mockImplementation(() => {});
    limitHeapGrowth(50);
    expect(setFlags).toHaveBeenCalledWith('--heap-growing-percent=50');
    setFlags.mockClear();
    limitHeapGrowth(0);
    expect(setFlags).not.toHaveBeenCalled();
  });
});
