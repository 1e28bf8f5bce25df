// A small seeded generator (mulberry32): the same seed gives the same sequence, so a bootstrap, a
// simulated league or a randomized run can be replayed exactly. Not for secrets (src/lib/crypto.ts).
// It lives in the engine because the engine imports nothing from outside itself.

/** Uniform numbers in [0, 1) from `seed`. */
export function seededRandom(seed: number): () => number {
  // The state lives in a typed array: held in a plain variable, a 32-bit value past V8's small
  // integers is boxed on every call (a simulated season's draws ran 4× slower so).
  const state = Uint32Array.of(seed >>> 0);
  return () => {
    state[0]! += 0x6d2b79f5;
    let t = state[0]!;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
