import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { byteProgress, ProgressTracker } from './progress.ts';
import type { BenchEvent } from '../../shared/model/spec.ts';
import type { WorkerPlan } from './worker-argv.ts';
import type { WorkerMessage } from './worker-protocol.ts';

type Progress = Extract<BenchEvent, { type: 'progress' }>;
type ProgressMessage = Extract<WorkerMessage, { type: 'progress' }>;

// 2 tests × (1 s warm-up + 2 runs × 2 s) = 10 s of planned measuring.
const plan: WorkerPlan = {
  target: '/mnt/disk',
  tests: ['seq1m-q8t1-read', 'rnd4k-q1t1-read'],
  sizeBytes: 2 ** 28,
  durationSec: 2,
  warmupSec: 1,
  runs: 2,
  precision: 0,
  maxTimeSec: 4,
  buffered: false,
  sampleMs: 100,
  pauseSec: 0,
  readOnly: false,
  statistic: 'median',
};

function tracker() {
  const events: Progress[] = [];
  const t = new ProgressTracker(plan, (e) => {
    assert.equal(e.type, 'progress');
    events.push(e as Progress);
  });
  return { t, events };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const msg = (m: Partial<ProgressMessage>): ProgressMessage => ({ v: 1, type: 'progress', phase: 'measure', jobs: 2, ...m });

describe('ProgressTracker', () => {
  test('warm-up and measuring map onto the planned time of the whole run', () => {
    const { t, events } = tracker();
    t.update(msg({ phase: 'warmup', job: 0, run: 0, elapsed_ns: 0.5e9 }));
    t.update(msg({ phase: 'measure', job: 0, run: 1, elapsed_ns: 1e9 }));
    t.update(msg({ phase: 'measure', job: 1, run: 2, elapsed_ns: 1e9 }));
    const [a, b, c] = events;
    assert.equal(a!.fraction, 0.05);
    assert.equal(a!.etaSec, 9.5);
    assert.equal(a!.test, 'seq1m-q8t1-read');
    assert.equal(a!.phase, 'warmup');
    assert.equal(b!.fraction, 0.2); // 1 s warm-up + 1 s of run 1
    assert.equal(b!.run, 1);
    assert.equal(c!.fraction, 0.9); // test 2: 5 s + warm-up 1 s + run 1 2 s + 1 s
    assert.equal(c!.etaSec, 1);
    assert.equal(c!.test, 'rnd4k-q1t1-read');
    assert.equal(c!.testIndex, 1);
    assert.equal(c!.testCount, 2);
  });

  test('the rests between tests (--rest, the flash preset) are planned time: the second test starts after one', () => {
    const events: Progress[] = [];
    const t = new ProgressTracker({ ...plan, pauseSec: 30 }, (e) => events.push(e as Progress));
    // 2 tests × 5 s + one 30 s rest between them = 40 s.
    t.update(msg({ phase: 'measure', job: 0, run: 2, elapsed_ns: 2e9 }));
    t.update(msg({ phase: 'warmup', job: 1, run: 0, elapsed_ns: 0 }));
    assert.equal(events[0]!.fraction, 5 / 40);
    assert.equal(events[0]!.etaSec, 35);
    assert.equal(events[1]!.fraction, 35 / 40, 'test 2 begins after test 1 and the rest');
    assert.equal(events[1]!.etaSec, 5);
  });

  test('a phase that overruns its plan is clamped: never past the next phase', () => {
    const { t, events } = tracker();
    t.update(msg({ phase: 'warmup', job: 0, run: 0, elapsed_ns: 5e9 }));
    t.update(msg({ phase: 'measure', job: 1, run: 2, elapsed_ns: 60e9 }));
    assert.equal(events[0]!.fraction, 0.1);
    assert.equal(events[1]!.fraction, 1);
    assert.equal(events[1]!.etaSec, 0);
  });

  test('fractions never go backwards through a whole run and stay within 0..1', async () => {
    const { t, events } = tracker();
    // Filling the test file takes real time: its ETA comes from the bytes written so far.
    t.update(msg({ phase: 'prepare', done_bytes: 0, total_bytes: 2 ** 28 }));
    await sleep(40);
    t.update(msg({ phase: 'prepare', done_bytes: 2 ** 27, total_bytes: 2 ** 28 }));
    await sleep(40);
    t.update(msg({ phase: 'prepare', done_bytes: 2 ** 28, total_bytes: 2 ** 28 }));
    for (let job = 0; job < 2; job++) {
      for (const e of [0, 0.5e9, 1e9]) t.update(msg({ phase: 'warmup', job, run: 0, elapsed_ns: e }));
      for (let run = 1; run <= 2; run++) for (const e of [0, 1e9, 2e9]) t.update(msg({ phase: 'measure', job, run, elapsed_ns: e }));
    }
    t.finish();
    const fractions = events.map((e) => e.fraction);
    for (let i = 1; i < fractions.length; i++)
      assert.ok(fractions[i]! >= fractions[i - 1]!, `step ${i}: ${fractions[i - 1]} → ${fractions[i]}`);
    for (const f of fractions) assert.ok(f >= 0 && f <= 1, `fraction ${f}`);
    assert.equal(events[0]!.phase, 'prepare');
    assert.equal(events[0]!.etaSec, null, 'no ETA before a single byte is written');
    // Half filled after ~40 ms: as long again of filling left, then the 10 s of tests.
    assert.ok(events[1]!.etaSec! > 10 && events[1]!.etaSec! < 11, `ETA half-way through the fill: ${events[1]!.etaSec}`);
    assert.ok(events[2]!.fraction > 0, 'the fill counts towards the whole run');
    assert.equal(events.at(-1)!.phase, 'cleanup');
    assert.equal(events.at(-1)!.fraction, 1);
    assert.equal(events.at(-1)!.etaSec, 0);
  });
});

test('byteProgress: the share done and the time left at the speed so far; no estimate before the first byte', () => {
  assert.deepEqual(byteProgress(25, 100, 0, 10_000), { fraction: 0.25, etaSec: 30, elapsedSec: 10 });
  assert.deepEqual(byteProgress(0, 100, 0, 10_000), { fraction: 0, etaSec: null, elapsedSec: 10 });
  assert.equal(byteProgress(120, 100, 0, 1_000).fraction, 1, 'never past the whole');
});
