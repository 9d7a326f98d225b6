// Steady state the SNIA way (Solid State Storage Performance Test Specification, Enterprise 1.1,
// 2.1.24 and 3.3): rounds of one test's pattern until, over a measurement window of the last 5
// rounds, the values' range is within 20 % of their mean and the range of their least-squares
// line (its slope × 4 rounds) within 10 % of it; at most 25 rounds. The worker stops on the same
// rule (native/src/stopping.c pts_steady); native/test checks that the two agree.

import { decimalBytes, durationWords } from './sustained-write.ts';
import type { TestResult } from '../model/results.ts';

export const STEADY_WINDOW = 5;
export const STEADY_RANGE = 0.2;
export const STEADY_SLOPE = 0.1;
export const STEADY_MAX_ROUNDS = 25;

export interface SteadyWindowCheck {
  mean: number;
  /** (max − min) / mean of the window. */
  rangeShare: number;
  /** |slope| × (rounds − 1) / mean: the fitted line's rise over the window. */
  slopeShare: number;
  steady: boolean;
}

/** The least-squares line through the values at x = 0, 1, …: its value at x = 0 and its slope per round. */
export function fittedLine(values: readonly number[]): { at0: number; slope: number } {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  const xbar = (n - 1) / 2;
  let sxy = 0;
  let sxx = 0;
  values.forEach((y, x) => {
    sxy += (x - xbar) * (y - mean);
    sxx += (x - xbar) ** 2;
  });
  const slope = sxx > 0 ? sxy / sxx : 0;
  return { at0: mean - slope * xbar, slope };
}

/** The rule on one window of round values (any length ≥ 2; SNIA's is 5). */
export function checkWindow(values: readonly number[]): SteadyWindowCheck {
  const n = values.length;
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2 || !(mean > 0)) return { mean, rangeShare: Infinity, slopeShare: Infinity, steady: false };
  const rangeShare = (Math.max(...values) - Math.min(...values)) / mean;
  const slopeShare = (Math.abs(fittedLine(values).slope) * (n - 1)) / mean;
  // The same comparisons as the C side (≤ on the shares), so a window on the edge is judged alike.
  return { mean, rangeShare, slopeShare, steady: rangeShare <= STEADY_RANGE && slopeShare <= STEADY_SLOPE };
}

export type SteadyVerdict =
  | {
      steady: true;
      /** Rounds it took: the window's last round (1-based). */
      rounds: number;
      /** The window's first round (1-based). */
      windowStart: number;
      /** The steady figure: the window's mean. */
      steadyValue: number;
      /** The first round: the drive fresh (after preconditioning). */
      freshValue: number;
      check: SteadyWindowCheck;
    }
  | {
      steady: false;
      rounds: number;
      freshValue: number | null;
      /** The last window's check (null under 5 rounds): how far from steady it ended. */
      check: SteadyWindowCheck | null;
    };

/** The first window of the series that is steady, or that none is (a result too: "not steady after N rounds"). */
export function steadyOf(series: readonly number[], maxRounds = STEADY_MAX_ROUNDS): SteadyVerdict {
  const rounds = series.slice(0, maxRounds);
  for (let end = STEADY_WINDOW; end <= rounds.length; end++) {
    const check = checkWindow(rounds.slice(end - STEADY_WINDOW, end));
    if (check.steady)
      return { steady: true, rounds: end, windowStart: end - STEADY_WINDOW + 1, steadyValue: check.mean, freshValue: rounds[0]!, check };
  }
  const last = rounds.length >= STEADY_WINDOW ? checkWindow(rounds.slice(-STEADY_WINDOW)) : null;
  return { steady: false, rounds: rounds.length, freshValue: rounds[0] ?? null, check: last };
}

/** "steady after 7 rounds (rounds 3–7 within 4.1 % of their mean, line's rise 1.2 %)" / "not steady after 25 rounds (…)". */
export function steadyWords(v: SteadyVerdict): string {
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  if (v.steady)
    return `steady after ${v.rounds} rounds (rounds ${v.windowStart}–${v.rounds}: range ${pct(v.check.rangeShare)} of their mean, fitted line's rise ${pct(v.check.slopeShare)}; SNIA's limits 20 % and 10 %)`;
  const last = v.check ? `; the last 5: range ${pct(v.check.rangeShare)}, rise ${pct(v.check.slopeShare)}` : '';
  return `not steady after ${v.rounds} round${v.rounds === 1 ? '' : 's'}${last} (SNIA's limits 20 % and 10 %)`;
}

/** A result of the steady preset: it carries the fresh figure beside the steady one (node/bench/kinds/rate.ts). */
export const isSteadyResult = (r: TestResult): boolean => r.figures?.some((f) => f.metric === 'freshBytesPerSec') ?? false;

/**
 * The rounds a verdict's figure and spread are of, 1-based and inclusive: the steady window, or
 * the last 5 judged and failed (all of them under 5 rounds). The one place this is worked out:
 * the run's figure (kinds/rate.ts), the chart's marked window and the report's CV all read it.
 */
export function steadyWindowOf(verdict: SteadyVerdict): { start: number; end: number } {
  return { start: verdict.steady ? verdict.windowStart : Math.max(1, verdict.rounds - STEADY_WINDOW + 1), end: verdict.rounds };
}

/** How many rounds a steady result's figure and spread are of: its window's. */
export function steadyWindowRounds(r: TestResult): number {
  const { start, end } = steadyWindowOf(steadyOf(r.runs.map((run) => run.bytesPerSec)));
  return end - start + 1;
}

/** The speeds the cost is given at: a SATA SSD's, and a slow drive's once its cache is spent. */
const COST_SPEEDS = [500e6, 50e6] as const;

/**
 * What the steady preset writes, said before it starts (the CLI prints it, New run shows it): the
 * test file whole once, then the warm-up and at most 25 rounds of the pattern, which are timed, so
 * their bytes depend on the drive's speed and are given at a fast and a slow one.
 */
export function steadyCostText(s: { sizeBytes: number; durationSec: number; warmupSec: number; tests: readonly string[] }): string {
  const seconds = s.tests.length * (s.warmupSec + STEADY_MAX_ROUNDS * s.durationSec);
  const at = (speed: number) => decimalBytes(s.sizeBytes + seconds * speed);
  return (
    `steady state writes the ${decimalBytes(s.sizeBytes)} test file whole, then up to ${STEADY_MAX_ROUNDS} rounds of ${s.durationSec} s ` +
    `after ${s.warmupSec} s of warm-up per test: at most ${durationWords(seconds)} of writing, up to ${at(COST_SPEEDS[0])} at 500 MB/s ` +
    `or ${at(COST_SPEEDS[1])} at 50 MB/s, counted against the drive's rated write endurance; it stops sooner once steady`
  );
}
