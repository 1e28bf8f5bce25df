// Bookmakers' odds to probabilities without their margin. The margin is not spread evenly: it
// weighs more on long shots (the favourite–longshot bias), so dividing each 1/odd by their sum
// overstates outsiders. The power method (p_i = (1/o_i)^k, k chosen so the p_i sum to 1) puts
// the margin where it lies; Clarke, Kovalchik & Ingram (2017) found it the most accurate of the
// usual methods on football and tennis prices, with Shin's close behind.

/** Margin-free probabilities of one market's decimal odds by the power method. */
export function marginFree<T extends readonly number[]>(odds: T): { -readonly [K in keyof T]: number } {
  const inverse = odds.map((odd) => 1 / odd);
  const total = inverse.reduce((sum, value) => sum + value, 0);
  // Odds already without margin (or with a negative one, from a rounding) are only normalised.
  if (!(total > 1 + 1e-9) || inverse.some((value) => !(value > 0 && value < 1))) {
    return inverse.map((value) => value / total) as { -readonly [K in keyof T]: number };
  }
  // Σ p_i^k falls from `total` (k = 1) as k grows: bisection on k, then the small residue normalised.
  let low = 1;
  let high = 2;
  const sumAt = (k: number) => inverse.reduce((sum, value) => sum + value ** k, 0);
  while (sumAt(high) > 1) high *= 2;
  for (let i = 0; i < 60; i++) {
    const mid = (low + high) / 2;
    if (sumAt(mid) > 1) low = mid;
    else high = mid;
  }
  const powered = inverse.map((value) => value ** high);
  const sum = powered.reduce((acc, value) => acc + value, 0);
  return powered.map((value) => value / sum) as { -readonly [K in keyof T]: number };
}
