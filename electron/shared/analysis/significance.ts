// The one rule that says whether a change between two figures is beyond their run-to-run
// noise. The CLI's compare, the app's Compare page, the report and the summary all read it
// through compare.ts's deltas; nothing else judges "noise".
//
// WHY A LOG SCALE. The figures compared are rates and times, and what is reported is their
// ratio ("×86.2"). Run-to-run variation of such figures is multiplicative and skewed: a disk
// that runs 13,000 IOPS has runs at 2,250 (one stalled run, 15× a hard disk's cap), never runs
// at 24,000. On a linear scale that one slow run gives a standard deviation of thousands of
// IOPS, so the old rule, |b − a| > 2·√(sd_a² + sd_b²), called an ×86 gain "may be noise" while
// the same runs' latency, judged on its own (smaller) numbers, was "beyond spread". On the log
// scale a run 15× slower and a run 15× faster are the same distance from the median, the spread
// of a fast disk is measured in the same terms (a factor) as the slow one's, and the quantity
// judged, ln(b / a), is the ratio the reader sees. So:
//
//     beyond spread  ⇔  |ln(b / a)| > k · √(s_a² + s_b²),   k = 2
//
// where s is the standard deviation of ln(value) over a result's repeated runs, or, for a
// result that carries only a coefficient of variation, √(ln(1 + cv²)) (the log-normal's). Like
// the old rule this is run-to-run spread, not the standard error of the median: it asks
// "could the runs' own wobble make this difference", which stays conservative with few runs.
// A rank test was the alternative; with the 3 to 6 runs a result has it can never reach
// significance for three runs a side (the smallest two-sided p is 0.1) and would call every
// short comparison noise. Ties (the same value on both sides) give ln 1 = 0: never beyond.
import { formatRatio } from './units.ts';

/** How many combined (log-scale) standard deviations a change must reach to count as real. */
export const SPREAD_FACTOR = 2;

/** A figure and its run-to-run spread on the log scale (null: no spread known). */
export interface SpreadSample {
  value: number;
  logSd: number | null;
}

/** The standard deviation of ln(v) over repeated values; null below two positive values. */
export function logSpreadOfValues(values: number[]): number | null {
  const logs = values.filter((v) => Number.isFinite(v) && v > 0).map(Math.log);
  if (logs.length < 2) return null;
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  return Math.sqrt(logs.reduce((a, v) => a + (v - mean) ** 2, 0) / (logs.length - 1));
}

/** The log-scale spread of a figure known only by its coefficient of variation. */
export function logSpreadOfCv(cv: number): number {
  return Math.sqrt(Math.log(1 + cv * cv));
}

export interface SpreadJudgement {
  beyond: boolean;
  /** The change and the noise it was held against, both as factors: "×1.10 against ×1.03". */
  reason: string;
}

/** Judge b against a; both need a positive value and a known log spread (callers say why not). */
export function judgeChange(a: SpreadSample, b: SpreadSample): SpreadJudgement | null {
  if (a.logSd === null || b.logSd === null || !(a.value > 0) || !(b.value > 0)) return null;
  const change = Math.abs(Math.log(b.value / a.value));
  const noise = SPREAD_FACTOR * Math.sqrt(a.logSd ** 2 + b.logSd ** 2);
  const beyond = change > noise;
  const factor = (x: number) => formatRatio(Math.exp(x));
  return {
    beyond,
    reason:
      `the change (${factor(change)}) ${beyond ? 'exceeds' : 'is within'} ${SPREAD_FACTOR}× the runs' combined spread ` +
      `on a log scale (${factor(noise)})`,
  };
}
