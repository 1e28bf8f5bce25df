// The score matrix: the probability of every scoreline up to MAX_GOALS each, from the two
// expected-goal rates and the Dixon–Coles correction. Every market is read off this one matrix.
import type { DrawBalance } from './types.js';

export const MAX_GOALS = 10;
const SIZE = MAX_GOALS + 1;

export interface ScoreMatrix {
  /** p[home * SIZE + away], normalised to sum to 1. */
  readonly p: Float64Array;
  readonly size: number;
  readonly lambda: number;
  readonly mu: number;
}

/** Dixon–Coles tau: the correction to independent Poisson for the four low scores. */
export function tau(x: number, y: number, lambda: number, mu: number, rho: number): number {
  if (x === 0 && y === 0) return 1 - lambda * mu * rho;
  if (x === 0 && y === 1) return 1 + lambda * rho;
  if (x === 1 && y === 0) return 1 + mu * rho;
  if (x === 1 && y === 1) return 1 - rho;
  return 1;
}

export function drawFactor(draw: DrawBalance, spread: number): number {
  return Math.exp(draw.base + draw.slope * spread);
}

/** Probability of a draw under Dixon–Coles (tau moves mass between 0-0, 1-1 and 0-1, 1-0 only). */
export function diagonalMass(lambda: number, mu: number, rho: number): number {
  let home = Math.exp(-lambda);
  let away = Math.exp(-mu);
  let total = 0;
  for (let k = 0; k < SIZE; k++) {
    total += home * away;
    home *= lambda / (k + 1);
    away *= mu / (k + 1);
  }
  return Math.min(Math.max(total - 2 * lambda * mu * rho * Math.exp(-lambda - mu), 1e-9), 1 - 1e-9);
}

function poissonRow(rate: number): Float64Array {
  const row = new Float64Array(SIZE);
  let term = Math.exp(-rate);
  for (let k = 0; k < SIZE; k++) {
    row[k] = term;
    term *= rate / (k + 1);
  }
  return row;
}

/**
 * Rates are clamped to a plausible range so odd ratings still give a well-formed matrix. The
 * draw balance, when given, scales the diagonal before the matrix is normalised.
 */
export function scoreMatrix(lambdaIn: number, muIn: number, rho: number, draw?: DrawBalance): ScoreMatrix {
  const lambda = clampRate(lambdaIn);
  const mu = clampRate(muIn);
  const safeRho = Number.isFinite(rho) ? rho : 0;
  const home = poissonRow(lambda);
  const away = poissonRow(mu);
  const diagonal = draw ? drawFactor(draw, Math.abs(Math.log(lambda) - Math.log(mu))) : 1;
  const p = new Float64Array(SIZE * SIZE);
  let total = 0;
  for (let x = 0; x < SIZE; x++) {
    for (let y = 0; y < SIZE; y++) {
      const value =
        home[x]! *
        away[y]! *
        Math.max(tau(x, y, lambda, mu, safeRho), 0) *
        (x === y && Number.isFinite(diagonal) ? diagonal : 1);
      p[x * SIZE + y] = value;
      total += value;
    }
  }
  for (let i = 0; i < p.length; i++) p[i] = p[i]! / total;
  return { p, size: SIZE, lambda, mu };
}

function clampRate(rate: number): number {
  if (!Number.isFinite(rate)) return 1.3;
  return Math.min(Math.max(rate, 0.05), 6);
}

/**
 * Moves the matrix's mass so that its home/draw/away and over/under 2.5 probabilities become the
 * targets (iterative proportional fitting over the six cells of those two partitions): the
 * nearest matrix, in relative entropy, with those margins. Within each cell the scores keep
 * their proportions, so every market is still read off one consistent matrix.
 */
export function rakeMatrix(
  matrix: ScoreMatrix,
  oneXTwo: readonly [number, number, number],
  over: number,
): ScoreMatrix {
  const p = Float64Array.from(matrix.p);
  const outcome = (x: number, y: number) => (x > y ? 0 : x === y ? 1 : 2);
  for (let iteration = 0; iteration < 30; iteration++) {
    const sums = [0, 0, 0];
    for (let x = 0; x < SIZE; x++) for (let y = 0; y < SIZE; y++) sums[outcome(x, y)]! += p[x * SIZE + y]!;
    const factors = sums.map((sum, k) => (sum > 1e-12 ? oneXTwo[k]! / sum : 1));
    let overMass = 0;
    for (let x = 0; x < SIZE; x++) {
      for (let y = 0; y < SIZE; y++) {
        const i = x * SIZE + y;
        p[i] = p[i]! * factors[outcome(x, y)]!;
        if (x + y > 2) overMass += p[i]!;
      }
    }
    if (!(overMass > 1e-12 && overMass < 1 - 1e-12)) break;
    const up = over / overMass;
    const down = (1 - over) / (1 - overMass);
    for (let x = 0; x < SIZE; x++) for (let y = 0; y < SIZE; y++) p[x * SIZE + y]! *= x + y > 2 ? up : down;
    if (Math.max(...factors.map((factor) => Math.abs(factor - 1))) < 1e-7) break;
  }
  let total = 0;
  for (const value of p) total += value;
  for (let i = 0; i < p.length; i++) p[i] = p[i]! / total;
  return { ...matrix, p };
}

/** A recalibration of the over/under 2.5 split: logit p′ = shift + scale · logit p. */
export interface TotalsCalibration {
  shift: number;
  scale: number;
}

/**
 * Moves the matrix's mass between the scores over 2.5 goals and the others so that the over
 * probability p becomes p′ (logit p′ = shift + scale · logit p); within each side of the line the
 * scores keep their proportions, so every market is still read off one consistent matrix.
 */
export function calibrateTotals(matrix: ScoreMatrix, calibration: TotalsCalibration): ScoreMatrix {
  if (calibration.shift === 0 && calibration.scale === 1) return matrix;
  let over = 0;
  for (let x = 0; x < SIZE; x++)
    for (let y = 0; y < SIZE; y++) if (x + y > 2) over += matrix.p[x * SIZE + y]!;
  if (!(over > 1e-9 && over < 1 - 1e-9)) return matrix;
  const logit = calibration.shift + calibration.scale * Math.log(over / (1 - over));
  const target = 1 / (1 + Math.exp(-logit));
  if (!Number.isFinite(target)) return matrix;
  const up = target / over;
  const down = (1 - target) / (1 - over);
  const p = new Float64Array(matrix.p.length);
  for (let x = 0; x < SIZE; x++) {
    for (let y = 0; y < SIZE; y++) p[x * SIZE + y] = matrix.p[x * SIZE + y]! * (x + y > 2 ? up : down);
  }
  return { ...matrix, p };
}

/**
 * The matrix as stored with a successful analysis (issue 53): its cells as little-endian float64,
 * base64. A slip's legs on one match are summed from it, never from a model run again.
 */
export function encodeMatrix(matrix: ScoreMatrix): string {
  const bytes = Buffer.alloc(matrix.p.length * 8);
  for (let i = 0; i < matrix.p.length; i++) bytes.writeDoubleLE(matrix.p[i]!, i * 8);
  return bytes.toString('base64');
}

/** A stored matrix back to its cells (p[home * size + away]); undefined when it is not one. */
export function decodeMatrix(text: string): { p: Float64Array; size: number } | undefined {
  const bytes = Buffer.from(text, 'base64');
  const cells = bytes.length / 8;
  const size = Math.round(Math.sqrt(cells));
  if (cells === 0 || size * size !== cells) return undefined;
  const p = new Float64Array(cells);
  for (let i = 0; i < cells; i++) p[i] = bytes.readDoubleLE(i * 8);
  return { p, size };
}
