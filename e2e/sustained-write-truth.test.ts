// The lab's truth for the sustained write: util/throttle.c's algorithm run request by request
// agrees with its closed form, and the worker's stream through it, analysed by the app, finds
// what the throttle was set to (no QEMU here: the lab, sustained-write-lab.test.ts, boots one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSustained, type SustainedInterval } from '../electron/shared/analysis/sustained-write.ts';
import { throttleClosedForm, throttleTruth, toleranceOf } from './sustained-write-lab.ts';

const MiB = 2 ** 20;

test('the throttle run request by request matches its closed form within one request', () => {
  for (const [shape, block, rest] of [
    [{ avg: 10 * MiB, max: 80 * MiB, lengthSec: 4 }, MiB, 10],
    [{ avg: 3 * MiB, max: 48 * MiB, lengthSec: 3 }, 128 * 1024, 8],
    [{ avg: 40e6, max: 400e6, lengthSec: 5 }, MiB, 30],
  ] as const) {
    const truth = throttleTruth(shape, {
      span: 4 * shape.max * shape.lengthSec,
      block,
      restSec: rest,
      recovery: 2 * shape.max * shape.lengthSec,
    });
    const closed = throttleClosedForm(shape, rest);
    assert.ok(Math.abs(truth.cacheBytes - closed.cacheBytes) <= block, `cache ${truth.cacheBytes} vs ${closed.cacheBytes}`);
    assert.ok(
      Math.abs(truth.regainedBytes - closed.regainedBytes) <= 2 * block,
      `regained ${truth.regainedBytes} vs ${closed.regainedBytes}`,
    );
    // The cache is more than max × length: the bucket drains at avg while it fills.
    assert.ok(truth.cacheBytes > shape.max * shape.lengthSec);
  }
});

test("a stream paced by the throttle and logged as the worker logs it: the app's analysis finds the throttle's cache and speeds", () => {
  // Pace the requests exactly as the throttle lets them through, and log every 500 ms.
  const shape = { avg: 10 * MiB, max: 80 * MiB, lengthSec: 4 };
  const truth = throttleTruth(shape, { span: 424 * MiB, block: MiB, restSec: 10, recovery: 160 * MiB });
  const completions: number[] = [];
  let level = 0;
  let burst = 0;
  let t = 0;
  let last = 0;
  for (let bytes = 0; bytes < 424 * MiB;) {
    const dt = t - last;
    last = t;
    level = Math.max(0, level - shape.avg * dt);
    burst = Math.max(0, burst - shape.max * dt);
    if (level - shape.max * shape.lengthSec > 1e-3) t += Math.max((level - shape.max * shape.lengthSec) / shape.avg, 1e-9);
    else if (burst - shape.max / 10 > 1e-3) t += Math.max((burst - shape.max / 10) / shape.max, 1e-9);
    else {
      level += MiB;
      burst += MiB;
      bytes += MiB;
      completions.push(t);
    }
  }
  const intervals: SustainedInterval[] = [];
  for (let from = 0, i = 0; i < completions.length; from += 0.5) {
    let n = 0;
    while (i < completions.length && completions[i]! < from + 0.5) {
      n++;
      i++;
    }
    intervals.push({ bytes: (intervals.at(-1)?.bytes ?? 0) + n * MiB, intervalBytes: n * MiB, intervalNs: 5e8 });
  }
  const a = analyzeSustained({ bytes: 424 * MiB, elapsedNs: intervals.length * 5e8, restNs: 0, complete: true, intervals });
  assert.ok(Math.abs(a.cacheBytes! / truth.cacheBytes - 1) < 0.03, `cache ${a.cacheBytes} vs ${truth.cacheBytes}`);
  assert.ok(Math.abs(a.before.bytesPerSec / shape.max - 1) < 0.03, `fast ${a.before.bytesPerSec}`);
  assert.ok(Math.abs(a.after!.bytesPerSec / shape.avg - 1) < 0.05, `slow ${a.after!.bytesPerSec}`);
});

test('the tolerance: the issue’s, widened by two standard errors of the measured spread; past the ceiling or under 3 intervals not judged', () => {
  assert.ok(Math.abs(toleranceOf(0.05, 0.1, 16, 0.1)! - 0.1) < 1e-12);
  assert.equal(toleranceOf(0.05, 0.5, 4, 0.1), null, 'too noisy');
  assert.equal(toleranceOf(0.05, 0.01, 2, 0.1), null, 'two intervals say nothing of the spread');
  assert.equal(toleranceOf(0.05, null, 0, 0.1), null);
});
