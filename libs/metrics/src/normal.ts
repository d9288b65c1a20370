/**
 * The standard normal CDF Φ(x), through the complementary error function of W. J. Cody's rational
 * Chebyshev approximations as given in Numerical Recipes (erfc, fractional error < 1.2e-7 everywhere),
 * enough for p-values reported to four decimals.
 */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  return 0.5 * erfc(-x / Math.SQRT2);
}

/** erfc(x) with fractional error below 1.2e-7 (Numerical Recipes' erfcc, Chebyshev fit). */
export function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}
