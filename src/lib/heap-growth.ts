// How far V8 lets the heap grow between two full garbage collections. Left to itself, V8 picks a
// factor between 1.1 and 4 from how fast it collects against how fast the program allocates; a
// server that allocates quickly and collects quickly gets the large end, so with ~50 MB of live
// objects its old space grew to 110 MB before a full collection, and the process's resident
// memory to 215-240 MB under load (bench:http, docs/performance.md). A fixed, smaller factor keeps
// the peak near the live size; unlike --max-old-space-size it is no cap, so a burst of real work
// still gets the memory it needs.
import v8 from 'node:v8';

/**
 * Sets the growth to `percent` % of the live size (0 leaves V8's own). The flag is read at each
 * full collection, so setting it once the process runs takes effect from the next one; it cannot
 * be given through NODE_OPTIONS, hence here.
 */
export function limitHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
