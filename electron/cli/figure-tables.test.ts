// The CLI's tables print a flagged figure with its interval, and the latency mean beside the
// percentiles (issue #40, items 7 and 8): `run`'s table and `show`'s, from one formatter.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { syntheticRun } from '../node/store/fixtures/synthetic-run.ts';
import type { RunRecord, TestResult } from '../shared/model/results.ts';
import { formatRecord } from './commands/run.ts';
import { formatRun } from './commands/show.ts';

/** A first run's RND4K Q1T1 read as the issue saw it: 52.63 IOPS, flagged noisy, known within ±210 %. */
function noisyRecord(): RunRecord {
  const base = syntheticRun(1, { tests: 1 });
  const noisy: TestResult = {
    ...base.results[0]!,
    test: 'rnd4k-q1t1-read',
    params: { rw: 'randread', blockSize: 4096, queueDepth: 1, threads: 1 },
    bytesPerSec: 52.63 * 4096,
    iops: 52.63,
    latencyNs: { mean: 6.62e6, p50: 66_000, p90: 150_000, p99: 95e6, p999: 99e6, max: 1e8 },
    cv: 0.9,
    underResolved: false,
    precision: { ciRelative: 2.1, target: 0.02, seconds: 30, stoppedBy: 'max-time' },
    warnings: [{ code: 'noisy', message: 'runs differ by 90.0 %' }],
  };
  return { ...base, source: 'measured', results: [noisy] };
}

describe('the CLI tables never print a flagged figure bare', () => {
  it("run's table: 52.63 IOPS ±210 % (noisy), and the mean beside p50 and p99", () => {
    const text = formatRecord(noisyRecord());
    assert.match(text, /latency p50 +latency mean +latency p99/);
    const line = text.split('\n').find((l) => l.includes('RND4K Q1T1')) ?? '';
    assert.match(line, /52\.63 IOPS ±210 % \(noisy\)/);
    assert.match(line, /0\.216 MB\/s ±210 % \(noisy\)/);
    assert.match(line, /66 µs +6\.62 ms +95 ms/);
  });

  it("show's table: the same figure with its interval, and the mean", () => {
    const text = formatRun(noisyRecord(), 'MB');
    assert.match(text, /LAT P50 +LAT MEAN +LAT P99/);
    const line = text.split('\n').find((l) => l.includes('rnd4k-q1t1-read')) ?? '';
    assert.match(line, /52\.63 IOPS ±210 % \(noisy\)/);
    assert.match(line, /66 µs +6\.62 ms +95 ms/);
  });
});
