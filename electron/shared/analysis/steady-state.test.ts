// The SNIA PTS steady-state rule on series whose answer is worked out by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkWindow, steadyCostText, steadyOf, steadyWindowOf, steadyWords } from './steady-state.ts';

test('a flat series is steady at the fifth round, its figure the window mean, the first round the fresh one', () => {
  const v = steadyOf([100, 100, 100, 100, 100, 100]);
  assert.ok(v.steady);
  assert.equal(v.rounds, 5);
  assert.equal(v.windowStart, 1);
  assert.equal(v.steadyValue, 100);
  assert.equal(v.freshValue, 100);
});

test('a falling burst then a plateau: steady once 5 rounds lie on the plateau, the fresh figure the burst', () => {
  // An SLC cache spent over rounds 1–3, then 50 ± 2.
  const v = steadyOf([400, 250, 90, 50, 52, 48, 51, 49, 50]);
  assert.ok(v.steady, steadyWords(v));
  assert.equal(v.rounds, 8);
  assert.equal(v.windowStart, 4);
  assert.equal(v.steadyValue, 50);
  assert.equal(v.freshValue, 400);
  assert.match(steadyWords(v), /^steady after 8 rounds \(rounds 4–8: range 8\.0 % of their mean/);
});

test('the range limit: 20 % of the mean holds, just past it does not', () => {
  // Mean 100, range 20: on the limit (and no slope: symmetric).
  assert.ok(checkWindow([90, 110, 100, 110, 90]).steady);
  const past = checkWindow([89, 111, 100, 111, 89]);
  assert.equal(past.steady, false);
  assert.ok(Math.abs(past.rangeShare - 0.22) < 1e-12);
});

test('the slope limit: a steady climb within the range is not steady when its line rises more than 10 %', () => {
  // 95, 98, 101, 104, 107 (mean 101): range 11.9 % (within 20 %), but the line rises 12 over 4 rounds, 11.9 %.
  const climb = checkWindow([95, 98, 101, 104, 107]);
  assert.ok(climb.rangeShare < 0.2);
  assert.ok(Math.abs(climb.slopeShare - 12 / 101) < 1e-12);
  assert.equal(climb.steady, false);
  // Half the climb: a rise of 6 over 101, steady.
  assert.ok(checkWindow([98, 99.5, 101, 102.5, 104]).steady);
});

test('not steady after 25 rounds is a result, and rounds past 25 are not looked at', () => {
  const saw = Array.from({ length: 30 }, (_, i) => (i % 2 ? 60 : 140));
  const v = steadyOf(saw);
  assert.equal(v.steady, false);
  assert.equal(v.rounds, 25);
  assert.equal(v.freshValue, 140);
  // Rounds 21–25: 140, 60, 140, 60, 140, mean 108, range 80: 74.1 %.
  assert.match(steadyWords(v), /^not steady after 25 rounds; the last 5: range 74\.1 %/);
  // Steady only from round 26 on: still "not steady after 25".
  assert.equal(steadyOf([...saw.slice(0, 25), 100, 100, 100, 100, 100]).steady, false);
});

test('under 5 rounds there is no window: not steady, no check', () => {
  const v = steadyOf([100, 100, 100]);
  assert.equal(v.steady, false);
  assert.equal(v.check, null);
  assert.equal(steadyWords(v), "not steady after 3 rounds (SNIA's limits 20 % and 10 %)");
});

test('what it writes, said before it starts: the file, then at most 25 rounds after the warm-up, at two speeds', () => {
  const text = steadyCostText({ sizeBytes: 2 ** 30, durationSec: 5, warmupSec: 5, tests: ['rnd4k-q32t1-write'] });
  // 5 + 25 × 5 = 130 s: 1.07 GB + 65 GB at 500 MB/s, + 6.5 GB at 50 MB/s.
  assert.match(
    text,
    /^steady state writes the 1\.1 GB test file whole, then up to 25 rounds of 5 s after 5 s of warm-up per test: at most 2 min 10 s of writing/,
  );
  assert.match(text, /up to 66 GB at 500 MB\/s or 7\.6 GB at 50 MB\/s/);
});

test("the window a verdict's figure is of: the steady one, else the last 5 judged, else every round under 5", () => {
  assert.deepEqual(steadyWindowOf(steadyOf([400, 250, 90, 50, 52, 48, 51, 49, 50])), { start: 4, end: 8 });
  const climbing = Array.from({ length: 25 }, (_, i) => 100 + 8 * i);
  assert.deepEqual(steadyWindowOf(steadyOf(climbing)), { start: 21, end: 25 });
  assert.deepEqual(steadyWindowOf(steadyOf([100, 200, 300])), { start: 1, end: 3 });
});
