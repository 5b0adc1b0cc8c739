// Latency statistics for the benchmark. Pure functions, no I/O, so they can be unit tested.

/** Nearest-rank percentile (p in 0..100) of an ascending-sorted sample; NaN when empty. */
export function percentileSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile out of range: ${p}`);
  if (p === 0) return sorted[0] as number;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, rank) - 1] as number;
}

export function percentile(sample: readonly number[], p: number): number {
  return percentileSorted(
    [...sample].sort((a, b) => a - b),
    p,
  );
}

export type LatencySummary = {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
};

export function summarize(sample: readonly number[]): LatencySummary {
  const sorted = [...sample].sort((a, b) => a - b);
  const sum = sorted.reduce((acc, v) => acc + v, 0);
  return {
    count: sorted.length,
    min: sorted.length ? (sorted[0] as number) : Number.NaN,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    p50: percentileSorted(sorted, 50),
    p95: percentileSorted(sorted, 95),
    p99: percentileSorted(sorted, 99),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
  };
}

/** Per-percentile difference "measured minus reference" (the latency a hop adds). */
export function addedLatency(
  measured: LatencySummary,
  reference: LatencySummary,
): { p50: number; p95: number; p99: number } {
  return {
    p50: measured.p50 - reference.p50,
    p95: measured.p95 - reference.p95,
    p99: measured.p99 - reference.p99,
  };
}

/** Slope of log(time) against log(size): 1.0 is linear, 2.0 quadratic. Needs >= 2 points. */
export function scalingExponent(points: ReadonlyArray<{ size: number; ms: number }>): number {
  const xs = points.map((p) => Math.log(p.size));
  const ys = points.map((p) => Math.log(Math.max(p.ms, 1e-6)));
  const n = xs.length;
  if (n < 2) return Number.NaN;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
    den += ((xs[i] as number) - mx) ** 2;
  }
  return den === 0 ? Number.NaN : num / den;
}
