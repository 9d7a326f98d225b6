import { test } from 'node:test';
import assert from 'node:assert/strict';
import { median } from '../electron/shared/analysis/statistics.ts';
import { versusBestEngine } from './best-engine.ts';

/** A deterministic stream of figures around `centre`, spread ±`spread` (uniform). */
function noisy(seed: number, n: number, centre: number, spread: number): number[] {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return centre * (1 + spread * (2 * (s / 2 ** 31) - 1));
  });
}

test('three equal tools with ±6 % noise: the chosen engine gives a ratio near 1, the best of each round does not', () => {
  const rounds = 401;
  const ours = noisy(1, rounds, 1400, 0.06);
  const uring = noisy(2, rounds, 1400, 0.06);
  const aio = noisy(3, rounds, 1400, 0.06);
  const v = versusBestEngine(ours, { 'fio io_uring': uring, 'fio libaio': aio }, true);
  assert.ok(Math.abs(v.ratio - 1) < 0.02, `chosen-engine ratio ${v.ratio}`);
  // The way bench:engine used to compare: against the better of the two in each round.
  const perRoundBest = median(ours.map((x, i) => x / Math.max(uring[i]!, aio[i]!)));
  assert.ok(perRoundBest < 0.985, `best-of-each-round ratio ${perRoundBest} should show the bias`);
});

test('the engine with the better median is chosen, for IOPS (higher) and for CPU per I/O (lower)', () => {
  const ours = [100, 100, 100];
  const engines = { a: [90, 120, 91], b: [95, 96, 97] };
  // a's best round is the highest, but b's median is: b is the best engine.
  assert.equal(versusBestEngine(ours, engines, true).engine, 'b');
  assert.equal(versusBestEngine(ours, engines, true).ratio, 100 / 96);
  assert.equal(versusBestEngine(ours, engines, false).engine, 'a');
  assert.equal(versusBestEngine(ours, engines, false).ratio, 100 / 91);
});

test('rounds that do not pair up are refused with both counts', () => {
  assert.throws(() => versusBestEngine([1, 2], { fio: [1] }, true), /fio has 1 rounds, DiskDelta 2/);
  assert.throws(() => versusBestEngine([], { fio: [] }, true), /needs figures/);
});
