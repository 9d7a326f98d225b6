// Aggregation over runs: median and best, spread, merged latency histograms, and the
// verdicts on whether a result can be trusted.
import type { LatencyHistogram, LatencyNs } from '../model/results.ts';

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Quantile p (0..1) of sorted values, interpolated between the two nearest ranks (NaN when
 * empty): the one percentile of a list (fleet statistics, a surface's access time).
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** Coefficient of variation (sample standard deviation / mean); null below 2 values. */
export function coefficientOfVariation(values: number[]): number | null {
  if (values.length < 2) return null;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  if (mean === 0) return null;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1);
  return Math.sqrt(variance) / mean;
}

/**
 * The worker's histogram scheme (native/src/histogram.c): exact below 64 ns, then 64
 * buckets per power of two. Given a bucket's lower bound, the next bucket's lower bound.
 */
export function nextBucketLower(lower: number): number {
  if (lower < 64) return lower + 1;
  const msb = Math.floor(Math.log2(lower));
  return lower + 2 ** (msb - 6);
}

export function mergeHistograms(histograms: LatencyHistogram[]): LatencyHistogram {
  const counts = new Map<number, number>();
  for (const h of histograms) for (const [lower, count] of h) counts.set(lower, (counts.get(lower) ?? 0) + count);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]);
}

/** Quantile q (0..1) of a histogram: the midpoint of the bucket holding that rank, clamped to [min, max]. */
export function histogramQuantile(h: LatencyHistogram, q: number, min: number, max: number): number {
  const total = h.reduce((a, [, c]) => a + c, 0);
  if (total === 0) return 0;
  const rank = Math.max(1, Math.ceil(q * total - 1e-9));
  let seen = 0;
  for (const [lower, count] of h) {
    seen += count;
    if (seen >= rank) {
      const mid = lower + (nextBucketLower(lower) - lower) / 2;
      return Math.min(max, Math.max(min, Math.floor(mid)));
    }
  }
  return max;
}

export interface LatencyRun {
  latency: { mean: number; min: number; max: number };
  ios: number;
  histogram: LatencyHistogram;
}

/** Latency over several runs: percentiles from the merged histogram, mean weighted by I/Os. */
export function combineLatency(runs: LatencyRun[]): { latencyNs: LatencyNs; histogram: LatencyHistogram } {
  const histogram = mergeHistograms(runs.map((r) => r.histogram));
  const ios = runs.reduce((a, r) => a + r.ios, 0);
  const min = Math.min(...runs.map((r) => r.latency.min));
  const max = Math.max(...runs.map((r) => r.latency.max));
  const mean = ios ? runs.reduce((a, r) => a + r.latency.mean * r.ios, 0) / ios : 0;
  return {
    histogram,
    latencyNs: {
      mean,
      p50: histogramQuantile(histogram, 0.5, min, max),
      p90: histogramQuantile(histogram, 0.9, min, max),
      p99: histogramQuantile(histogram, 0.99, min, max),
      p999: histogramQuantile(histogram, 0.999, min, max),
      max,
    },
  };
}

/** Two-sided 95 % quantiles of Student's t, 1..30 degrees of freedom (as in native/src/stopping.c). */
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086,
  2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

/**
 * Half-width of the median's 95 % confidence interval, relative to the median (0.02 = ±2 %);
 * null below 2 values. Standard error of a median: sqrt(pi/2) · s / sqrt(n) (normal data),
 * with Student's t for the few runs a test has. The worker stops adaptive tests on the same
 * formula (native/src/stopping.c); the worker's tests check that the two agree.
 */
export function medianInterval(values: number[]): number | null {
  const n = values.length;
  const m = median(values);
  if (n < 2 || !(m > 0)) return null;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const t = n - 1 <= 30 ? T975[n - 2]! : 1.96 + 2.4 / (n - 1);
  return (t * Math.sqrt(Math.PI / 2) * sd) / Math.sqrt(n) / m;
}

/**
 * The rates' trust rule on repeated values (a workload phase's timed passes): noisy when they
 * differ by more than TRUST.maxCv, or (three or more) their median is known only within more
 * than ±TRUST.maxCiRelative. One rule for the passes' warning (bench/kinds/workload.ts) and the
 * ⚑ of a measured gain (candidate-judged.ts).
 */
export function passesNoisy(values: number[]): boolean {
  const cv = coefficientOfVariation(values);
  const ci = medianInterval(values);
  return (cv !== null && cv > TRUST.maxCv) || (values.length >= 3 && ci !== null && ci > TRUST.maxCiRelative);
}

/** Thresholds for the trust verdicts, in one place so the README can quote them. */
export const TRUST = {
  /**
   * Adaptive stopping (the presets spread from ADAPTIVE in catalog/presets.ts: standard, full, sweep, nvme): a test adds runs until the median's
   * 95 % interval is within ±2 %, and is resolved (below), or its time is up.
   */
  precision: 0.02,
  /** A median known only within more than ±10 % (95 % interval, 3 runs or more) is flagged as noisy. */
  maxCiRelative: 0.1,
  /**
   * I/Os over all runs: one I/O is then at most 2 % of what the figure rests on, whatever
   * the block size. Large blocks on a slow disk move few I/Os; their precision is measured
   * (the interval above), not assumed from a count.
   */
  minTotalIos: 50,
  /**
   * Adaptive runs last long enough for this many I/Os (judged late in the warm-up): on an HDD
   * a 1 MiB run then takes ~1.7 s instead of 0.2 s, and a completion noticed late by a busy
   * CPU moves it by a few percent at most.
   */
  minWindowIos: 64,
  /** Fewer than 3 runs give no interval: each window then needs this many I/Os (1 % per I/O) … */
  minIos: 100,
  /** … and this long, or start-up and drain dominate it. Also the least timed seconds over all runs. */
  minWindowSec: 0.5,
  /** Runs that differ more than this (CV) are flagged as noisy. */
  maxCv: 0.1,
  /** Worker CPU above this share of its threads' cores: the CPU may be the limit. */
  cpuBoundShare: 0.85,
} as const;
