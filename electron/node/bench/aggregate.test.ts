import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Sample } from '../../shared/model/results.ts';
import { aggregateTest, noisyWarning } from './aggregate.ts';
import { TRUST } from '../../shared/analysis/statistics.ts';
import type { WorkerResult } from './worker-protocol.ts';

/** A worker result line as the worker prints it, with sensible defaults for a clean run. */
function result(over: Partial<WorkerResult> & { run: number }): WorkerResult {
  const elapsed_ns = over.elapsed_ns ?? 2e9;
  const ios = over.ios ?? 10_000;
  const bytes = over.bytes ?? ios * 4096;
  return {
    v: 1,
    type: 'result',
    job: 0,
    name: 'rnd4k-q1t1-read',
    rw: 'randread',
    bs: 4096,
    qd: 1,
    threads: 1,
    engine: 'aio',
    direct: true,
    reads: ios,
    writes: 0,
    bytes_per_sec: bytes / (elapsed_ns / 1e9),
    iops: ios / (elapsed_ns / 1e9),
    lat_ns: { mean: 200_000, min: 100_000, p50: 200_000, p90: 250_000, p99: 300_000, p999: 400_000, max: 500_000 },
    hist: [[2 ** 17, ios]],
    cpu: { user_ns: 0.05 * elapsed_ns, sys_ns: 0.1 * elapsed_ns },
    job_ns: over.run * elapsed_ns,
    ...over,
    elapsed_ns,
    ios,
    bytes,
  };
}

const FIXED = { precision: 0 };
const ADAPTIVE = { precision: TRUST.precision };

const codes = (r: { warnings: { code: string }[] }) => r.warnings.map((w) => w.code).sort();

describe('aggregateTest', () => {
  test('median and best over runs, CV of throughput, samples kept per run', () => {
    const runs = [
      result({ run: 1, bytes_per_sec: 100e6, iops: 24_000 }),
      result({ run: 2, bytes_per_sec: 104e6, iops: 25_000 }),
      result({ run: 3, bytes_per_sec: 98e6, iops: 23_900 }),
    ];
    const samples = new Map<number, Sample[]>([[2, [{ tMs: 100, bytesPerSec: 1, iops: 2 }]]]);
    const r = aggregateTest('rnd4k-q1t1-read', runs, samples, FIXED);
    assert.equal(r.test, 'rnd4k-q1t1-read');
    assert.equal(r.bytesPerSec, 100e6);
    assert.equal(r.iops, 24_000);
    assert.deepEqual(r.best, { bytesPerSec: 104e6, iops: 25_000 });
    const mean = (100 + 104 + 98) / 3;
    const sd = Math.sqrt(((100 - mean) ** 2 + (104 - mean) ** 2 + (98 - mean) ** 2) / 2);
    assert.ok(Math.abs(r.cv! - sd / mean) < 1e-12);
    assert.equal(r.runs.length, 3);
    assert.deepEqual(r.runs[1]!.samples, [{ tMs: 100, bytesPerSec: 1, iops: 2 }]);
    assert.deepEqual(r.runs[0]!.samples, []);
    assert.equal(
      r.histogram.reduce((n, [, c]) => n + c, 0),
      30_000,
      'histograms merged over runs',
    );
    assert.equal(r.underResolved, false);
    assert.deepEqual(r.warnings, [], 'a clean result carries no warning');
    assert.deepEqual(r.params, { rw: 'randread', blockSize: 4096, queueDepth: 1, threads: 1 });
  });

  test('one run: no CV, no noise verdict', () => {
    const r = aggregateTest('seq1m-q8t1-read', [result({ run: 1 })], new Map(), FIXED);
    assert.equal(r.cv, null);
    assert.deepEqual(codes(r), []);
  });

  test('under-resolved, fewer than 3 runs (no interval): too few I/Os in a run', () => {
    const r = aggregateTest('seeks', [result({ run: 1, ios: TRUST.minIos - 1 }), result({ run: 2 })], new Map(), FIXED);
    assert.equal(r.underResolved, true);
    assert.ok(codes(r).includes('under-resolved'));
    assert.match(
      r.warnings.find((w) => w.code === 'under-resolved')!.message,
      /measure each run for longer \(seconds per test\), or with more runs/,
    );
  });

  test('under-resolved, fewer than 3 runs: a window shorter than the minimum', () => {
    const r = aggregateTest('rnd4k-q1t1-read', [result({ run: 1, elapsed_ns: (TRUST.minWindowSec - 0.1) * 1e9 })], new Map(), FIXED);
    assert.equal(r.underResolved, true);
    assert.deepEqual(codes(r), ['under-resolved']);
  });

  test("3 runs or more: precision is measured, so a slow disk's few large I/Os per run are resolved when steady", () => {
    // The HDD case: SEQ1M at 40 MB/s moves ~10 I/Os per 0.25 s run, far below 100 per window.
    const steady = [1, 2, 3, 4, 5].map((run) =>
      result({ run, ios: 10, bytes: 10 * 2 ** 20, elapsed_ns: 0.262e9, bytes_per_sec: 40e6 * (1 + (run % 2) * 0.004) }),
    );
    const r = aggregateTest('seq1m-q1t1-read', steady, new Map(), ADAPTIVE);
    assert.equal(r.underResolved, false, 'a steady figure over 50 I/Os and 1.3 s is trusted');
    assert.ok(r.precision!.ciRelative! < TRUST.precision);
    // The same few I/Os, scattered: the interval is wide and says so.
    const scattered = [1, 2, 3, 4, 5].map((run) =>
      result({ run, ios: 10, bytes: 10 * 2 ** 20, elapsed_ns: 0.262e9, bytes_per_sec: 40e6 * (run % 2 ? 0.93 : 1.07) }),
    );
    const w = aggregateTest('seq1m-q1t1-read', scattered, new Map(), ADAPTIVE);
    assert.ok(w.cv! < TRUST.maxCv, 'a spread the CV rule alone lets through');
    assert.deepEqual(codes(w), ['noisy']);
    assert.match(w.warnings[0]!.message, /over 5 runs\), so the median is known within ±1\d\.\d % \(95 %\)/);
    // Steady but too little in all: 3 runs of 10 I/Os.
    const few = steady.slice(0, 3).map((x) => ({ ...x, ios: 10 }));
    const f = aggregateTest('seq1m-q1t1-read', few, new Map(), ADAPTIVE);
    assert.equal(f.underResolved, true);
    assert.match(f.warnings.find((x) => x.code === 'under-resolved')!.message, /30 I\/Os in 0\.79 s over 3 runs; want ≥ 50 I\/Os/);
  });

  test('precision: the interval reached, the target, the seconds (warm-up included) and why the runs stopped', () => {
    const runs = [1, 2, 3, 4, 5].map((run) => result({ run, bytes_per_sec: [100e6, 101e6, 99e6, 100.5e6, 99.5e6][run - 1]! }));
    runs[4] = { ...runs[4]!, stop: 'precision', job_ns: 10.3e9 };
    const r = aggregateTest('rnd4k-q1t1-read', runs, new Map(), ADAPTIVE);
    // s = 0.79 MB/s over a median of 100 MB/s, n = 5: t(4) · sqrt(pi/2) · s / sqrt(5) / median.
    const sd = Math.sqrt((0 + 1 + 1 + 0.25 + 0.25) / 4) * 1e6;
    const expected = (2.776 * Math.sqrt(Math.PI / 2) * sd) / Math.sqrt(5) / 100e6;
    assert.ok(Math.abs(r.precision!.ciRelative! - expected) < 1e-12);
    assert.deepEqual({ ...r.precision!, ciRelative: 0 }, { ciRelative: 0, target: 0.02, seconds: 10.3, stoppedBy: 'precision' });
    const one = aggregateTest('rnd4k-q1t1-read', [result({ run: 1 })], new Map(), FIXED);
    assert.deepEqual(one.precision, { ciRelative: null, target: 0, seconds: 2, stoppedBy: 'runs' });
  });

  test('noisy: runs that differ by more than the CV threshold', () => {
    const quiet = aggregateTest(
      'seq1m-q8t1-read',
      [result({ run: 1, bytes_per_sec: 100e6 }), result({ run: 2, bytes_per_sec: 105e6 }), result({ run: 3, bytes_per_sec: 102e6 })],
      new Map(),
      FIXED,
    );
    assert.ok(!codes(quiet).includes('noisy'));
    const noisy = aggregateTest(
      'seq1m-q8t1-read',
      [result({ run: 1, bytes_per_sec: 100e6 }), result({ run: 2, bytes_per_sec: 150e6 }), result({ run: 3, bytes_per_sec: 70e6 })],
      new Map(),
      FIXED,
    );
    assert.ok(noisy.cv! > TRUST.maxCv);
    assert.deepEqual(codes(noisy), ['noisy']);
  });

  test('cpu-bound: the worker kept its cores busy, counted per thread', () => {
    const busy = aggregateTest('rnd4k-q32t1-read', [result({ run: 1, cpu: { user_ns: 0.4e9, sys_ns: 1.5e9 } })], new Map(), FIXED);
    assert.deepEqual(codes(busy), ['cpu-bound']);
    // The same CPU time spread over seeks' 3 threads is only ~32 % of each core.
    const seeks = aggregateTest('seeks', [result({ run: 1, threads: 3, cpu: { user_ns: 0.4e9, sys_ns: 1.5e9 } })], new Map(), FIXED);
    assert.ok(!codes(seeks).includes('cpu-bound'));
    assert.deepEqual(busy.cpu, { userNs: 0.4e9, systemNs: 1.5e9 });
  });

  test('buffered: any run without O_DIRECT flags the result', () => {
    const r = aggregateTest('seq1m-q1t1-read', [result({ run: 1 }), result({ run: 2, direct: false })], new Map(), FIXED);
    assert.deepEqual(codes(r), ['buffered-io']);
  });

  test('psync fallback: a deep-queue test that ran at QD1 says so, a QD1 test does not', () => {
    const deep = aggregateTest('rnd4k-q32t1-read', [result({ run: 1, engine: 'psync' })], new Map(), FIXED);
    assert.deepEqual(codes(deep), ['queue-depth-emulated']);
    const shallow = aggregateTest('rnd4k-q1t1-read', [result({ run: 1, engine: 'psync' })], new Map(), FIXED);
    assert.deepEqual(codes(shallow), []);
  });

  test('latency: percentiles recomputed from the merged histogram, mean weighted by I/Os', () => {
    const r = aggregateTest(
      'rnd4k-q1t1-read',
      [
        result({
          run: 1,
          ios: 1000,
          hist: [[2 ** 17, 1000]],
          lat_ns: { mean: 131_000, min: 131_072, p50: 0, p90: 0, p99: 0, p999: 0, max: 133_000 },
        }),
        result({
          run: 2,
          ios: 3000,
          hist: [[2 ** 20, 3000]],
          lat_ns: { mean: 1_050_000, min: 1_048_576, p50: 0, p90: 0, p99: 0, p999: 0, max: 1_060_000 },
        }),
      ],
      new Map(),
      FIXED,
    );
    assert.equal(r.latencyNs!.mean, (131_000 * 1000 + 1_050_000 * 3000) / 4000);
    assert.equal(r.latencyNs!.p50, 2 ** 20 + 2 ** 13); // rank 2000 lies in run 2's bucket
    assert.equal(r.latencyNs!.p99, 2 ** 20 + 2 ** 13); // not the runs' own (zero) percentiles
    assert.equal(r.latencyNs!.max, 1_060_000);
  });
});

test("one noisy rule for every figure: a CV past the trust's, or a median's interval past it over 3 runs or more", () => {
  const words = { runs: 'rounds differ', why: 'why' };
  assert.equal(noisyWarning({ cv: TRUST.maxCv, ciRelative: null, count: 5, ...words }), null, 'at the limit: not noisy');
  assert.equal(noisyWarning({ cv: TRUST.maxCv * 2, ciRelative: null, count: 5, ...words })?.code, 'noisy');
  assert.equal(noisyWarning({ cv: 0, ciRelative: TRUST.maxCiRelative * 2, count: 2, ...words }), null, 'two runs: no interval to judge');
  assert.match(
    noisyWarning({ cv: 0, ciRelative: TRUST.maxCiRelative * 2, count: 3, ...words })!.message,
    /^rounds differ, so the median is known within ±[\d.]+ % \(95 %\): why$/,
  );
});
