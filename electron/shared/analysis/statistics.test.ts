import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { LatencyHistogram } from '../model/results.ts';
import { coefficientOfVariation, combineLatency, histogramQuantile, median, mergeHistograms, nextBucketLower } from './statistics.ts';

// A port of bucket_index() in native/src/histogram.c, the reference the tests below build
// histograms with. It is itself checked against the compiled C (see "matches the C worker").
const SUB_BITS = 6;
const SUB = 1 << SUB_BITS;
const BUCKETS = 48 * SUB;
function bucketLowerOf(v: number): number {
  if (v < SUB) return v;
  let msb = Math.floor(Math.log2(v));
  // log2 rounds up just below large powers of two (2^49 - 1 → 49): correct it exactly.
  if (2 ** msb > v) msb--;
  const shift = msb - SUB_BITS;
  const sub = Math.floor(v / 2 ** shift) % SUB;
  return (SUB + sub) * 2 ** shift;
}

function histogramOf(latencies: number[]): LatencyHistogram {
  const counts = new Map<number, number>();
  for (const v of latencies) counts.set(bucketLowerOf(v), (counts.get(bucketLowerOf(v)) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]);
}

/** The true quantile of a list: the value at rank ceil(q·n), as the histogram defines rank. */
function exactQuantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(q * sorted.length - 1e-9));
  return sorted[rank - 1]!;
}

/** Deterministic pseudo-random latencies (xorshift), spread like real I/O: a body and a tail. */
function latencies(n: number, seed: number): number[] {
  let x = seed >>> 0 || 1;
  const next = () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 2 ** 32;
  };
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const u = next();
    // 90 % around 50–200 µs, 10 % a tail up to 80 ms, a few tiny values below 128 ns.
    if (i % 97 === 0) out.push(Math.floor(next() * 120));
    else if (u < 0.9) out.push(Math.floor(50_000 + next() * 150_000));
    else out.push(Math.floor(1_000_000 + next() * 79_000_000));
  }
  return out;
}

describe('median', () => {
  test('odd and even counts, unsorted input, input left untouched', () => {
    const values = [5, 1, 3];
    assert.equal(median(values), 3);
    assert.deepEqual(values, [5, 1, 3]);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([7]), 7);
    assert.ok(Number.isNaN(median([])));
  });
});

describe('coefficientOfVariation', () => {
  test('sample standard deviation over the mean', () => {
    // mean 12, sample sd sqrt(((-2)²+0+2²)/2) = 2
    assert.ok(Math.abs(coefficientOfVariation([10, 12, 14])! - 2 / 12) < 1e-12);
    assert.equal(coefficientOfVariation([3, 3, 3, 3]), 0);
  });
  test('null where a spread means nothing: one value, or a zero mean', () => {
    assert.equal(coefficientOfVariation([42]), null);
    assert.equal(coefficientOfVariation([]), null);
    assert.equal(coefficientOfVariation([0, 0]), null);
  });
});

describe('histogram scheme', () => {
  test('buckets are exact below 128 ns, then 64 per power of two', () => {
    for (let v = 0; v < 128; v++) assert.equal(nextBucketLower(v), v + 1, `bucket ${v}`);
    assert.equal(nextBucketLower(128), 130);
    assert.equal(nextBucketLower(254), 256);
    assert.equal(nextBucketLower(256), 260);
    assert.equal(nextBucketLower(2 ** 20), 2 ** 20 + 2 ** 14);
    // Every bucket lower bound the port produces is followed by the next one.
    let lower = 0;
    for (let i = 0; i < BUCKETS - 1; i++) {
      const next = nextBucketLower(lower);
      assert.equal(bucketLowerOf(next), next, `bucket ${i + 1} starts at ${next}`);
      assert.equal(bucketLowerOf(next - 1), lower, `bucket ${i} ends just before ${next}`);
      lower = next;
    }
  });

  test('mergeHistograms adds counts per bucket and keeps them ascending', () => {
    const merged = mergeHistograms([
      [
        [100, 2],
        [4096, 1],
      ],
      [
        [64, 1],
        [100, 3],
      ],
    ]);
    assert.deepEqual(merged, [
      [64, 1],
      [100, 5],
      [4096, 1],
    ]);
  });

  test('quantiles of known latencies are within half a bucket (≤ 0.8 %) of the brute-force value', () => {
    for (const seed of [1, 7, 2024]) {
      const values = latencies(20_000, seed);
      const h = histogramOf(values);
      const min = Math.min(...values);
      const max = Math.max(...values);
      for (const q of [0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 1]) {
        const exact = exactQuantile(values, q);
        const got = histogramQuantile(h, q, min, max);
        const lower = bucketLowerOf(exact);
        const halfWidth = (nextBucketLower(lower) - lower) / 2;
        assert.ok(Math.abs(got - exact) <= halfWidth, `seed ${seed} q ${q}: histogram ${got} vs exact ${exact} (half bucket ${halfWidth})`);
        if (exact >= 128) assert.ok(Math.abs(got - exact) / exact <= 1 / 128 + 1e-12);
        else assert.equal(got, exact, 'exact buckets below 128 ns');
      }
    }
  });

  test('quantiles are clamped to the observed min and max', () => {
    const h: LatencyHistogram = [[2 ** 20, 10]]; // bucket 2^20 .. 2^20 + 2^14, midpoint 2^20 + 2^13
    assert.equal(histogramQuantile(h, 0.5, 2 ** 20 + 1, 2 ** 20 + 100), 2 ** 20 + 100);
    assert.equal(histogramQuantile(h, 0.5, 2 ** 20 + 9000, 2 ** 20 + 12000), 2 ** 20 + 9000);
    assert.equal(histogramQuantile(h, 0.5, 0, 2 ** 21), 2 ** 20 + 2 ** 13);
    assert.equal(histogramQuantile([], 0.5, 0, 0), 0);
  });

  test('combineLatency: merged percentiles, mean weighted by I/Os, extremes over runs', () => {
    const a = [100_000, 100_000, 100_000];
    const b = [300_000];
    const { latencyNs, histogram } = combineLatency([
      { latency: { mean: 100_000, min: 100_000, max: 100_000 }, ios: 3, histogram: histogramOf(a) },
      { latency: { mean: 300_000, min: 300_000, max: 300_000 }, ios: 1, histogram: histogramOf(b) },
    ]);
    assert.equal(latencyNs.mean, 150_000);
    assert.equal(latencyNs.max, 300_000);
    assert.equal(latencyNs.p50, 100_000); // clamped to min: the bucket midpoint lies above it
    assert.equal(latencyNs.p99, 300_000); // clamped to max
    assert.equal(
      histogram.reduce((n, [, c]) => n + c, 0),
      4,
    );
  });
});

// The worker computes its percentiles in C; the app recomputes them in TS from the merged
// histograms. Both must agree exactly, or a run's p99 would differ between the two.
test('matches the C worker: bucket bounds and quantiles of native/src/histogram.c', (t) => {
  if (spawnSync('cc', ['--version']).status !== 0) {
    t.skip('no C compiler (cc) to build native/src/histogram.c for the comparison');
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'diskdelta-hist-'));
  try {
    const nativeSrc = fileURLToPath(new URL('../../../native/src/', import.meta.url));
    const harness = join(dir, 'harness.c');
    writeFileSync(
      harness,
      `#include <stdio.h>
#include <stdlib.h>
#include "histogram.h"
int main(void) {
  static histogram_t h;
  hist_reset(&h);
  unsigned long long v;
  while (scanf("%llu", &v) == 1) hist_add(&h, v);
  for (unsigned i = 0; i < HIST_BUCKETS; i++) printf("L %llu\\n", (unsigned long long)hist_bucket_lower(i));
  for (unsigned i = 0; i < HIST_BUCKETS; i++)
    if (h.buckets[i]) printf("B %llu %llu\\n", (unsigned long long)hist_bucket_lower(i), (unsigned long long)h.buckets[i]);
  double qs[] = {0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0};
  for (unsigned i = 0; i < sizeof qs / sizeof qs[0]; i++) printf("Q %g %llu\\n", qs[i], (unsigned long long)hist_quantile(&h, qs[i]));
  printf("M %llu %llu\\n", (unsigned long long)h.min_ns, (unsigned long long)h.max_ns);
  return 0;
}
`,
    );
    const bin = join(dir, 'harness');
    const cc = spawnSync('cc', ['-std=c11', '-O2', `-I${nativeSrc}`, '-o', bin, harness, join(nativeSrc, 'histogram.c')], {
      encoding: 'utf8',
    });
    assert.equal(cc.status, 0, cc.stderr);

    const values = [...latencies(5000, 99), 0, 1, 63, 64, 127, 128, 129, 2 ** 40 + 12345];
    const run = spawnSync(bin, [], { input: values.join('\n'), encoding: 'utf8' });
    assert.equal(run.status, 0, run.stderr);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' '));
    const lowers = lines.filter((l) => l[0] === 'L').map((l) => Number(l[1]));
    const buckets: LatencyHistogram = lines.filter((l) => l[0] === 'B').map((l) => [Number(l[1]), Number(l[2])]);
    const quantiles = lines.filter((l) => l[0] === 'Q').map((l) => [Number(l[1]), Number(l[2])] as const);
    const [, minText, maxText] = lines.find((l) => l[0] === 'M')!;

    assert.equal(lowers.length, BUCKETS);
    for (let i = 0; i + 1 < lowers.length; i++) {
      assert.equal(nextBucketLower(lowers[i]!), lowers[i + 1], `bucket ${i}: C says the next starts at ${lowers[i + 1]}`);
    }
    // The reference port used above buckets exactly as C does.
    assert.deepEqual(histogramOf(values), buckets);
    assert.equal(quantiles.length, 7);
    for (const [q, fromC] of quantiles) {
      assert.equal(histogramQuantile(buckets, q, Number(minText), Number(maxText)), fromC, `quantile ${q}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
