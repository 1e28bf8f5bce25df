// The two optimisers the engine's fitting script needs: Nelder–Mead for a few smooth parameters
// (the filters' settings, the 1X2 pooling weights) and IRLS for a logistic regression (the
// over/under pool, convex: Newton steps reach its optimum exactly).
import { solveLinear } from '../../src/engine/linear.js';

/** The minimum of `f` near `start` (Nelder–Mead, initial simplex steps `scale`). */
export function nelderMead(
  f: (x: readonly number[]) => number,
  start: readonly number[],
  scale = 0.3,
  iterations = 200,
  tolerance = 1e-9,
): { x: number[]; value: number } {
  const n = start.length;
  let simplex = [start.slice(), ...start.map((_, i) => start.map((v, j) => (i === j ? v + scale : v)))].map(
    (x) => ({
      x,
      value: f(x),
    }),
  );
  for (let it = 0; it < iterations; it++) {
    simplex.sort((a, b) => a.value - b.value);
    const best = simplex[0]!;
    const worst = simplex[n]!;
    if (Math.abs(worst.value - best.value) < tolerance * (1 + Math.abs(best.value))) break;
    const centroid = start.map((_, j) => simplex.slice(0, n).reduce((sum, p) => sum + p.x[j]!, 0) / n);
    const along = (t: number) => centroid.map((c, j) => c + t * (worst.x[j]! - c));
    const reflected = along(-1);
    const r = f(reflected);
    if (r < best.value) {
      const expanded = along(-2);
      const e = f(expanded);
      simplex[n] = e < r ? { x: expanded, value: e } : { x: reflected, value: r };
    } else if (r < simplex[n - 1]!.value) {
      simplex[n] = { x: reflected, value: r };
    } else {
      const contracted = along(0.5);
      const c = f(contracted);
      if (c < worst.value) simplex[n] = { x: contracted, value: c };
      else
        simplex = simplex.map((p, i) => {
          if (i === 0) return p;
          const x = p.x.map((v, j) => best.x[j]! + 0.5 * (v - best.x[j]!));
          return { x, value: f(x) };
        });
    }
  }
  simplex.sort((a, b) => a.value - b.value);
  return { x: simplex[0]!.x, value: simplex[0]!.value };
}

/**
 * Logistic regression of `y` (0/1, or a probability: a soft target) on `features` (each row
 * with its leading 1), by Newton steps with a tiny ridge. Returns the coefficients.
 */
export function logistic(features: readonly (readonly number[])[], y: readonly number[]): number[] {
  const k = features[0]!.length;
  let beta = new Array<number>(k).fill(0);
  for (let it = 0; it < 50; it++) {
    const gradient = new Array<number>(k).fill(0);
    const hessian = Array.from({ length: k }, (_, r) =>
      Array.from({ length: k }, (_, c) => (r === c ? 1e-6 : 0)),
    );
    features.forEach((row, i) => {
      const z = row.reduce((sum, value, j) => sum + value * beta[j]!, 0);
      const p = 1 / (1 + Math.exp(-z));
      const w = p * (1 - p);
      for (let r = 0; r < k; r++) {
        gradient[r]! += (y[i]! - p) * row[r]!;
        for (let c = 0; c < k; c++) hessian[r]![c]! += w * row[r]! * row[c]!;
      }
    });
    const step = solveLinear(hessian, gradient);
    if (!step) break;
    beta = beta.map((b, j) => b + step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-10) break;
  }
  return beta;
}
