import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LiveRun } from '../stores/runs.ts';
import { clampToFloor, liveLineStyle, liveScale, stoppedText, testStates, type LiveChartSeries } from './live-view.ts';

const line = (test: string, mbps: number[]): LiveChartSeries => ({
  test,
  title: test,
  points: mbps.map((v, i) => ({ tSec: i / 10, mbps: v })),
});

/** Where a value sits on the axis, 0 (floor) … 1 (top): what "flat on zero" is about. */
function height(scale: ReturnType<typeof liveScale>, v: number, top: number): number {
  if (!scale.log) return v / top;
  const [lo, hi] = scale.domain as [number, number];
  return Math.log10(v / lo) / Math.log10(hi / lo);
}

test('live axis: 0.6 MB/s beside 40 MB/s goes log (issue 27) and both lines stand off the floor; alike levels stay linear', () => {
  const far = [line('rnd4k-q1t1-read', [0.5, 0.6, 0.7, 0.6]), line('seq1m-q8t1-read', [38, 40, 42, 40])];
  const scale = liveScale(far);
  assert.equal(scale.log, true);
  assert.match(scale.note, /^log scale: the tests' levels span ×67$/);
  assert.deepEqual(scale.domain, [0.1, 100]);
  for (const v of [0.6, 40]) assert.ok(height(scale, v, 100) >= 0.2, `${v} MB/s at ${height(scale, v, 100)}`);
  // On the old linear axis from zero, 0.6 of ~42 was 1.4 % of the height: flat on the floor.
  assert.ok(0.6 / 42 < 0.02);

  const near = [line('seq1m-q8t1-read', [900, 1000]), line('seq1m-q8t1-write', [300, 400])];
  assert.deepEqual(liveScale(near), { log: false, note: 'linear scale', domain: [0, 'auto'] });
  // One noisy test alone is not a spread between tests.
  assert.equal(liveScale([line('seeks', [0.01, 50, 60])]).log, false);
});

test('live axis: a stall of 0 MB/s on a log axis is drawn on its floor, not lost', () => {
  const series = [line('a', [0, 0.6, 0.6]), line('b', [40, 40])];
  const scale = liveScale(series);
  assert.equal(scale.log, true);
  assert.deepEqual(
    clampToFloor(series, scale)[0]!.points.map((p) => p.mbps),
    [0.1, 0.6, 0.6],
  );
});

function run(status: LiveRun['status'], tests: string[]): LiveRun {
  return {
    runId: 'r',
    spec: { target: '/mnt' },
    startedAt: '',
    status,
    progress: {
      test: tests.at(-1) ?? null,
      testIndex: tests.length - 1,
      testCount: 8,
      phase: 'measure',
      run: 1,
      runs: 1,
      fraction: 0.12,
      etaSec: 9,
    },
    tests,
    samples: [],
    warnings: [],
    recordId: null,
    error: null,
  };
}

test('a cancelled run: the tests before are done, the one it stopped in says cancelled, and where it stopped is said in words', () => {
  const r = run('cancelled', ['seq1m-q8t1-read', 'seq1m-q8t1-write']);
  assert.deepEqual(
    testStates(r).map((t) => t.state),
    ['done', 'cancelled'],
  );
  assert.equal(stoppedText(r), 'Cancelled during sequential write 1M Q8T1 (test 2 of 8), 12 % of the way through the run.');
  assert.deepEqual(
    testStates(run('failed', ['seq1m-q8t1-read'])).map((t) => t.state),
    ['failed'],
  );
  assert.equal(stoppedText(run('running', ['seq1m-q8t1-read'])), null);
  assert.deepEqual(
    testStates(run('done', ['seq1m-q8t1-read', 'seq1m-q8t1-write'])).map((t) => t.state),
    ['done', 'done'],
  );
});

test("live lines: the grid's eight tests each have their own dash (greyscale), and no two of 24 lines look alike", () => {
  const styles = Array.from({ length: 24 }, (_, i) => liveLineStyle(i));
  assert.equal(new Set(styles.slice(0, 8).map((s) => s.dash)).size, 8);
  assert.equal(new Set(styles.map((s) => `${s.stroke} ${s.dash}`)).size, 24);
});
