// What online discard costs per tree delete, judged ONCE (#39): `diskdelta discard-cost` says it
// when it measures, and the assessment's verdict (verdicts.ts) says it again from the stored pair,
// by this same rule, so the two can never disagree (they did: "nothing measurable … within each
// other's range" against "+0.467 s (×1.17)").
//
// The rule: a difference inside both settings' ranges of timed passes is noise and said so, not
// printed as a cost (a negative "cost" was); with one pass each there is no range, and the
// sentence says that. The delete phase of a tree is a few passes of seconds, where a stalled
// pass is as likely as a quick one: the ranges' overlap is the honest test at 3 passes.
import { counted } from '../model/display.ts';

export interface DiscardPhase {
  /** The delete + sync median, seconds; null: not timed. */
  seconds: number | null;
  /** Each timed pass's delete, seconds (warm-up left out). */
  passes: readonly number[];
}

export interface DiscardCostJudgement {
  /** not-timed: a delete missing; within-noise: ranges overlap; nothing: faster with discard; costs: slower beyond both ranges (or one pass each). */
  state: 'not-timed' | 'within-noise' | 'nothing' | 'costs';
  without: number | null;
  with: number | null;
  /** With − without, seconds. */
  cost: number | null;
  /** Passes per setting (the fewer of the two). */
  runs: number;
  /** One pass each: no range to tell a cost from noise. */
  noRange: boolean;
}

export function judgeDiscardCost(off: DiscardPhase, on: DiscardPhase): DiscardCostJudgement {
  const cost = off.seconds !== null && on.seconds !== null ? on.seconds - off.seconds : null;
  const range = (p: DiscardPhase) => (p.passes.length > 1 ? { min: Math.min(...p.passes), max: Math.max(...p.passes) } : null);
  const [a, b] = [range(off), range(on)];
  const overlap = a && b ? a.min <= b.max && b.min <= a.max : null;
  const state = cost === null ? 'not-timed' : overlap ? 'within-noise' : cost <= 0 ? 'nothing' : 'costs';
  return {
    state,
    without: off.seconds,
    with: on.seconds,
    cost,
    runs: Math.min(off.passes.length, on.passes.length),
    noRange: overlap === null && cost !== null,
  };
}

/** Two decimals read 0.00 s for what a small tree takes: below 0.1 s, milliseconds. */
export const discardSeconds = (v: number | null) => (v === null ? 'not timed' : `${v.toFixed(Math.abs(v) < 0.1 ? 3 : 2)} s`);

/**
 * The judgement in words: "online discard costs 1.99 s per 45k-file delete here (0.71 s without,
 * 2.70 s with)". `place` is "here" for this machine's measurement.
 */
export function discardCostHead(j: DiscardCostJudgement, tree: string, place = 'here'): string {
  const both = `${discardSeconds(j.without)} without, ${discardSeconds(j.with)} with`;
  const at = place ? ` ${place}` : '';
  let head: string;
  if (j.state === 'not-timed') head = `what online discard costs per ${tree}${at} is not known: a delete was not timed (${both})`;
  else if (j.state === 'within-noise')
    head = `online discard costs nothing measurable per ${tree}${at} (${both}: within each other's range over ${counted(j.runs, 'run')})`;
  else if (j.state === 'nothing')
    head = `online discard costs nothing per ${tree}${at} (${both}: ${discardSeconds(-j.cost!)} less with it)`;
  else head = `online discard costs ${discardSeconds(j.cost)} per ${tree}${at} (${both})`;
  return `${head}${j.noRange ? `; one run each: no range to tell a cost from noise${place === 'here' ? ' (--runs 3)' : ''}` : ''}`;
}

/** "45k-file delete", "120-file delete": the tree's size as discard-cost says it. */
export function treeWords(files: number): string {
  return files >= 1000 ? `${Math.round(files / 1000)}k-file delete` : `${files}-file delete`;
}
