// The sustained write's cliff finder on streams of known shape: a drive modelled as speeds over
// bytes written, logged in intervals as the worker logs them (sustained.c).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeSustained, buyerSentence, durationWords, recoveryOf, type SustainedStream } from './sustained-write.ts';

const MB = 1e6;

/** A stream through `levels` ([bytes up to which, speed]), the last speed to the end, logged every intervalSec. */
function stream(total: number, levels: Array<[number, number]>, intervalSec = 0.5, noise?: (i: number) => number): SustainedStream {
  const speedAt = (b: number) => levels.find(([upTo]) => b < upTo)?.[1] ?? levels.at(-1)![1];
  const intervals = [];
  let bytes = 0;
  let i = 0;
  let elapsed = 0;
  while (bytes < total) {
    // Integrate the speed over the interval in small steps, so an interval can straddle a cliff.
    let t = 0;
    const start = bytes;
    const factor = noise ? noise(i) : 1;
    while (t < intervalSec && bytes < total) {
      const dt = Math.min(0.001, intervalSec - t);
      bytes = Math.min(total, bytes + speedAt(bytes) * factor * dt);
      t += dt;
    }
    intervals.push({ bytes, intervalBytes: bytes - start, intervalNs: t * 1e9 });
    elapsed += t;
    i++;
  }
  return { bytes, elapsedNs: elapsed * 1e9, restNs: 0, complete: true, intervals };
}

const within = (actual: number, expected: number, tolerance: number, what: string) =>
  assert.ok(Math.abs(actual / expected - 1) <= tolerance, `${what}: ${actual} vs ${expected} (±${tolerance * 100} %)`);

test('one cliff: the cache size is found inside its interval, not rounded to one, and both speeds exactly', () => {
  // 2 GB at 400 MB/s, then 40 MB/s (the first lab shape), logged twice a second.
  const a = analyzeSustained(
    stream(2.6e9, [
      [2e9, 400 * MB],
      [Infinity, 40 * MB],
    ]),
  );
  assert.equal(a.cliffs.length, 1);
  within(a.cacheBytes!, 2e9, 0.002, 'cache');
  within(a.before.bytesPerSec, 400 * MB, 0.001, 'before');
  within(a.after!.bytesPerSec, 40 * MB, 0.001, 'after');
  // One interval is 200 MB at the fast speed: the interpolation does better than 10 %.
  assert.ok(Math.abs(a.cacheBytes! - 2e9) < 0.2e9 / 20);
});

test('no cliff within the span: cacheBytes null, the speed is the whole stream’s, and the sentence says none ran out', () => {
  const a = analyzeSustained(stream(1e9, [[Infinity, 300 * MB]]));
  assert.equal(a.cacheBytes, null);
  assert.equal(a.after, null);
  within(a.before.bytesPerSec, 300 * MB, 0.001, 'speed');
  assert.match(buyerSentence(a, 1e9), /no cache ran out within the span/);
});

test('two cliffs (SLC, then folding to QLC): both found in order; "after" is the speed between them', () => {
  const a = analyzeSustained(
    stream(8e9, [
      [1e9, 1000 * MB],
      [5e9, 200 * MB],
      [Infinity, 50 * MB],
    ]),
  );
  assert.equal(a.cliffs.length, 2);
  within(a.cliffs[0]!.atBytes, 1e9, 0.01, 'first cliff');
  within(a.cliffs[1]!.atBytes, 5e9, 0.01, 'second cliff');
  within(a.after!.bytesPerSec, 200 * MB, 0.01, 'between the cliffs');
  within(a.cliffs[1]!.afterBytesPerSec, 50 * MB, 0.01, 'after the second');
});

test('noise of ±10 % per interval is not a cliff, and does not move the real one by more than 5 %', () => {
  // A fixed pseudo-random sequence, so the test is the same on every run.
  let seed = 7;
  const noise = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return 0.9 + 0.2 * (seed / 2 ** 31);
  };
  const flat = analyzeSustained(stream(4e9, [[Infinity, 500 * MB]], 0.5, noise));
  assert.equal(flat.cliffs.length, 0, 'noise alone');
  const a = analyzeSustained(
    stream(
      4e9,
      [
        [2.5e9, 500 * MB],
        [Infinity, 100 * MB],
      ],
      0.5,
      noise,
    ),
  );
  assert.equal(a.cliffs.length, 1);
  within(a.cacheBytes!, 2.5e9, 0.05, 'cache under noise');
  assert.ok(a.before.spread! > 0.03 && a.before.spread! < 0.1, `the spread is measured (${a.before.spread})`);
});

test('recovery: the bytes written fast after the rest, from the stream’s time and the two speeds; a stream that stayed fast is a lower bound', () => {
  const fill = stream(3e9, [
    [2e9, 400 * MB],
    [Infinity, 40 * MB],
  ]);
  const again = {
    ...stream(1e9, [
      [300 * MB, 400 * MB],
      [Infinity, 40 * MB],
    ]),
    restNs: 30e9,
  };
  const a = analyzeSustained(fill, again);
  within(a.recovery!.regainedBytes, 300 * MB, 0.01, 'regained');
  assert.equal(a.recovery!.restSec, 30);
  assert.equal(a.recovery!.atLeast, false);
  const stayed = recoveryOf(stream(200 * MB, [[Infinity, 400 * MB]]), 400 * MB, 40 * MB);
  assert.equal(stayed!.atLeast, true);
  within(stayed!.regainedBytes, 200 * MB, 0.001, 'all of the stream');
});

test("the buyer's sentence: the speed after the cache and what a copy ten times the cache takes, against the cache's speed", () => {
  const a = analyzeSustained(
    stream(6e9, [
      [4.1e9, 500 * MB],
      [Infinity, 152 * MB],
    ]),
  );
  assert.equal(buyerSentence(a, 6e9), 'after 4.1 GB this drive writes at 152 MB/s: a 50 GB copy would take 5 min 10 s, not 1 min 40 s');
  assert.deepEqual([durationWords(80), durationWords(260), durationWords(3900)], ['80 s', '4 min 20 s', '1 h 5 min']);
});

test('the interval a cliff falls in is no second cliff: the speed past the cache is taken over the whole slow stretch', () => {
  // The sustained-write lab's fill at 22:00 UTC on 2026-12-01 (load 0.6): QEMU's throttle at
  // 48 MiB/s for 153.4 MiB, then 3 MiB/s; the rates it printed, one per 500 ms interval. The
  // interval of the fall (9.6) beside the first slow one made a 1.25× "cut" of its own, and the
  // speed past the cache came from the single interval between the two cuts.
  const MiB = 2 ** 20;
  const rates = [55.7, 48.1, 48.1, 48.1, 47.9, 47.9, 9.6, 3.0, 2.9, 3.2, 3.0, 2.9, 3.0, 3.2, 2.9, 3.0, 2.9, 3.2, 2.9, 2.9, 2.9];
  let bytes = 0;
  const intervals = rates.map((r) => {
    bytes += r * MiB * 0.5;
    return { bytes, intervalBytes: r * MiB * 0.5, intervalNs: 0.5e9 };
  });
  const a = analyzeSustained({ bytes, elapsedNs: rates.length * 0.5e9, restNs: 0, complete: true, intervals });
  assert.equal(a.cliffs.length, 1, 'one fall');
  assert.equal(a.after!.intervals, 14, 'every interval after the mixed one');
  within(a.after!.bytesPerSec, 3.0 * MiB, 0.02, 'past the cache');
  within(a.before.bytesPerSec, 48 * MiB, 0.01, 'in the cache');
});
