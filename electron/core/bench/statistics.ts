// Aggregation over runs: median and best, spread, merged latency histograms, and the
// verdicts on whether a result can be trusted.
import type { LatencyHistogram, LatencyNs } from '../model/results.ts';

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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

/** Thresholds for the trust verdicts, in one place so the README can quote them. */
export const TRUST = {
  /** Fewer I/Os than this in a timed window: the figure moves by more than 1 % per I/O. */
  minIos: 100,
  /** A timed window shorter than this is dominated by start-up and drain. */
  minWindowSec: 0.5,
  /** Runs that differ more than this (CV) are flagged as noisy. */
  maxCv: 0.1,
  /** Worker CPU above this share of its threads' cores: the CPU may be the limit. */
  cpuBoundShare: 0.85,
} as const;
