// Once bought and measured (issue #42): each candidate's forecast set beside the measurement of
// the new disk, as gains over the disk it replaced ("sequential read: forecast ×2.79, measured
// ×2.60"). The forecast was made from the assessment's before run (its current disk), so both
// gains are over the same run; both are kept, neither replaces the other.
//
// The workloads too ("bigfile write: forecast ×3.10, measured ×2.90 (×2.70–×3.20)"): each phase's
// forecast gain beside its time on the before disk ÷ its time on the new disk, both measured by
// workload runs of those disks (the caller picks them with run-kind.ts's sameDisk: a workload
// timed on a third disk is never taken). The measured gain carries its passes' spread and ⚑ where
// the passes are noisy by the rates' trust rule; a phase not timed on the new disk says which
// command would time it.
import type { RunRecord } from '../model/results.ts';
import { sameDisk } from '../model/run-kind.ts';
import type { Forecast } from './candidate-forecast.ts';
import { driveFiguresOfRun, FIGURE_KEYS, FIGURES, type FigureKey } from './candidate.ts';
import { passesNoisy } from './statistics.ts';
import { phaseBytes } from './workload-forecast.ts';
import { formatRatio } from './units.ts';
import { NOISY } from './figure-text.ts';

export interface JudgedFigure {
  key: FigureKey;
  /** Forecast here ÷ the before run (estimated). */
  forecastGain: number;
  /** The after run ÷ the before run (measured). */
  measuredGain: number;
  /** Its runs' spread: the slowest new-disk run ÷ the fastest before run, and the other way round; null: no runs kept (an import). */
  low: number | null;
  high: number | null;
  /** The fewer runs of the two results (0: none kept, 1: no spread known). */
  runs: number;
  /** Either result carries the rates' noisy flag (bench/aggregate.ts): marked ⚑. */
  noisy: boolean;
  /** The measured cell's words: "×2.60", "×2.60 (×2.41–×2.83) ⚑". */
  measuredText: string;
  line: string;
}

/** A workload phase's gain measured by workload runs of the before and the new disk. */
export interface MeasuredGain {
  /** The phase's median seconds on the before disk ÷ on the new disk. */
  gain: number;
  /** The passes' spread: the fastest before pass ÷ the slowest new-disk pass, and the other way round. */
  low: number;
  high: number;
  /** The passes on either disk are noisy by the rates' trust rule (statistics.ts passesNoisy): marked ⚑. */
  noisy: boolean;
  /** The fewer passes of the two disks' (1: no spread known). */
  passes: number;
  beforeSeconds: number;
  afterSeconds: number;
  /** The workload runs that timed it on each disk. */
  beforeRun: number | null;
  afterRun: number | null;
}

export interface JudgedWorkload {
  test: string;
  phase: string;
  /** The forecast's gain (the before disk's time ÷ the forecast); null: no forecast (the forecast says why). */
  forecastGain: number | null;
  /** The forecast's range is wide (workload-forecast.ts ROUGH_RANGE): its gain is a rough guide, said beside it. */
  forecastRough: boolean;
  measured: MeasuredGain | null;
  /** The measured cell's words: "×2.90 (×2.70–×3.20) ⚑", "not measured on the new disk". */
  measuredText: string;
  /** Not measured: which command would time it on the new disk; null when measured. */
  why: string | null;
  line: string;
}

export interface JudgedCandidate {
  name: string;
  origin: string;
  figures: JudgedFigure[];
  workloads: JudgedWorkload[];
}

/** Workload runs of the two disks: those the forecast read (the before disk's) and those timed on the new disk. */
export interface JudgedWorkloadRuns {
  before: readonly RunRecord[];
  after: readonly RunRecord[];
}

interface PhaseTime {
  seconds: number;
  passes: number[];
  runId: number | null;
  /** The bytes it moved, from its basis ("one file of 800 MB"); null: not said. */
  bytes: number | null;
}

/** Each workload phase the runs time, from the first run that times it (the runs as the forecast read them). */
export function phaseTimes(runs: readonly RunRecord[]): Map<string, PhaseTime> {
  const times = new Map<string, PhaseTime>();
  for (const run of runs)
    for (const result of run.results)
      for (const f of result.figures ?? []) {
        const key = `${result.test} ${f.subject}`;
        if (f.metric !== 'phaseSeconds' || f.value === null || !(f.value > 0) || times.has(key)) continue;
        const passes = (f.passes ?? [f.value]).filter((p) => p > 0);
        times.set(key, { seconds: f.value, passes: passes.length ? passes : [f.value], runId: run.id ?? null, bytes: phaseBytes(f.basis) });
      }
  return times;
}

/** Both disks' times of one phase as a gain with its spread. */
export function measuredGain(before: PhaseTime, after: PhaseTime): MeasuredGain {
  return {
    gain: before.seconds / after.seconds,
    low: Math.min(...before.passes) / Math.max(...after.passes),
    high: Math.max(...before.passes) / Math.min(...after.passes),
    noisy: passesNoisy(before.passes) || passesNoisy(after.passes),
    passes: Math.min(before.passes.length, after.passes.length),
    beforeSeconds: before.seconds,
    afterSeconds: after.seconds,
    beforeRun: before.runId,
    afterRun: after.runId,
  };
}

/** A forecast gain, "(rough)" beside it when its range is wide: "×279 (rough)". */
export function roughGainText(gain: number, rough: boolean): string {
  return `${formatRatio(gain)}${rough ? ' (rough)' : ''}`;
}

/** "×2.90 (×2.70–×3.20)", "×2.90 (one pass: no spread)", with ⚑ when noisy. */
export function measuredGainText(m: MeasuredGain): string {
  return gainText(m.gain, m, m.passes, 'pass', m.noisy);
}

/** A measured gain, its spread over `count` repeats (0: none kept, said bare), ⚑ when noisy: one wording for rates and workloads. */
function gainText(
  gain: number,
  spread: { low: number | null; high: number | null },
  count: number,
  repeat: 'pass' | 'run',
  noisy: boolean,
): string {
  const range =
    count === 0 || spread.low === null || spread.high === null
      ? ''
      : count < 2
        ? ` (one ${repeat}: no spread)`
        : ` (${formatRatio(spread.low)}–${formatRatio(spread.high)})`;
  return `${formatRatio(gain)}${range}${noisy ? ' ⚑' : ''}`;
}

/** Each run's rate of the result a figure was read from (driveFiguresOfRun's `from`), bytes/s. */
function rateRuns(run: RunRecord | null, key: FigureKey): { values: number[]; noisy: boolean } {
  const test = run ? driveFiguresOfRun(run).from[key] : undefined;
  const result = test ? run!.results.find((r) => r.test === test) : undefined;
  if (!result) return { values: [], noisy: false };
  const block = result.params?.blockSize ?? FIGURES[key].params.blockSize;
  return {
    values: result.runs.map((m) => (m.bytesPerSec > 0 ? m.bytesPerSec : m.iops * block)).filter((v) => v > 0),
    noisy: result.warnings.some((w) => w.code === NOISY),
  };
}

/** A rate's measured gain with its runs' spread and flag, from the before and the after run. */
function judgedRate(key: FigureKey, forecastGain: number, measuredGain: number, before: RunRecord | null, after: RunRecord): JudgedFigure {
  const b = rateRuns(before, key);
  const a = rateRuns(after, key);
  const runs = Math.min(b.values.length, a.values.length);
  const low = runs ? Math.min(...a.values) / Math.max(...b.values) : null;
  const high = runs ? Math.max(...a.values) / Math.min(...b.values) : null;
  const noisy = b.noisy || a.noisy;
  const measuredText = gainText(measuredGain, { low, high }, runs, 'run', noisy);
  return {
    key,
    forecastGain,
    measuredGain,
    low,
    high,
    runs,
    noisy,
    measuredText,
    line: judgedLine(FIGURES[key].words, formatRatio(forecastGain), measuredText),
  };
}

export const NOT_MEASURED_ON_NEW_DISK = 'not measured on the new disk';

/**
 * A judged row as `assess show` says it, from the judged table's cells (the report's and the
 * app's read back the same way): "sequential read: forecast ×2.79, measured ×2.60",
 * "bigfile delete: forecast ×3.10, not measured on the new disk".
 */
export function judgedLine(what: string, forecast: string, measured: string): string {
  const unmeasured = measured === NOT_MEASURED_ON_NEW_DISK || measured === NOT_COMPARABLE;
  return `${what}: forecast ${forecast}, ${unmeasured ? measured : `measured ${measured}`}`;
}

/** Said once under the judged table when a measured gain is marked. */
export const NOISY_GAIN_NOTE =
  '⚑: the runs or passes behind that gain are noisy on the before or the new disk (they differ by more than 10 %, or their median is known only within more than ±10 %): read the measured gain as rough, and measure again on a quiet machine.';

/** The command that times this workload on the new disk (a folder on it: workloads write files). */
function measureCommand(test: string, after: RunRecord, sameSize = false): string {
  const where = after.target.kind === 'folder' ? after.target.path : 'FOLDER-ON-THE-NEW-DISK';
  return `diskdelta run --tests ${test} --target ${where} times it there${sameSize ? ", with the before disk's size" : ''}`;
}

/** Said in the measured cell of a phase the new disk timed over other bytes than the before disk. */
export const NOT_COMPARABLE = 'not comparable (another size on the new disk)';

/** Why two timings of a phase are not comparable: they moved other bytes (beyond 1 %); null: comparable or not said. */
function otherBytes(before: PhaseTime, after: PhaseTime): string | null {
  if (before.bytes === null || after.bytes === null || Math.abs(after.bytes - before.bytes) <= 0.01 * before.bytes) return null;
  const mb = (b: number) => `${Math.round(b / 1e6)} MB`;
  return `it moved ${mb(after.bytes)} on the new disk and ${mb(before.bytes)} on the before disk, so their times are not comparable`;
}

/**
 * Said instead of a measured gain when the new disk's run measured the disk the workloads were
 * timed on (an assessment of one disk before and after a change): which of its workload runs
 * timed it before the change and which after cannot be told, so none is judged.
 */
export const SAME_DISK_WORKLOADS =
  "the after run measured the same disk as the before run's workloads: which workload run timed it before and which after cannot be told";

/** Each phase the forecast made for one candidate, beside the same phase timed on both disks. */
function judgedWorkloads(
  c: Forecast['candidates'][number],
  before: Map<string, PhaseTime>,
  afterTimes: Map<string, PhaseTime> | null,
  after: RunRecord,
): JudgedWorkload[] {
  const seen = new Set<string>();
  return c.workloads.flatMap((w): JudgedWorkload[] => {
    const key = `${w.test} ${w.phase}`;
    if (seen.has(key)) return [];
    seen.add(key);
    const was = before.get(key);
    const timed = afterTimes?.get(key);
    // A phase that moved other bytes on the new disk (another file size) times other work: not set beside.
    const otherSize = was && timed ? otherBytes(was, timed) : null;
    const now = otherSize ? undefined : timed;
    const measured = was && now ? measuredGain(was, now) : null;
    const measuredText = measured ? measuredGainText(measured) : otherSize ? NOT_COMPARABLE : NOT_MEASURED_ON_NEW_DISK;
    const forecastText = w.gain === null ? 'none' : roughGainText(w.gain, w.rough);
    return [
      {
        test: w.test,
        phase: w.phase,
        forecastGain: w.gain,
        forecastRough: w.rough,
        measured,
        measuredText,
        why: measured
          ? null
          : otherSize
            ? `${key}: ${otherSize}; ${measureCommand(w.test, after, true)}`
            : afterTimes
              ? `${w.test}: ${NOT_MEASURED_ON_NEW_DISK}; ${measureCommand(w.test, after)}`
              : SAME_DISK_WORKLOADS,
        line: judgedLine(key, forecastText, measuredText),
      },
    ];
  });
}

/**
 * Per candidate, each figure both the forecast and the two runs carry: its forecast gain beside
 * the measured one; and each workload phase forecast, beside its gain measured by `workloads`.
 * The before run is the forecast's current disk (forecast.current.figures are its figures), so
 * both gains are over the same measurement.
 */
export function forecastBesideMeasured(
  forecast: Forecast,
  after: RunRecord,
  workloads: JudgedWorkloadRuns = { before: [], after: [] },
  /** The before run whole (the forecast keeps its figures only): its runs give each rate's spread. */
  before: RunRecord | null = null,
): JudgedCandidate[] {
  const was = forecast.current.figures;
  const now = driveFiguresOfRun(after).figures;
  const beforeTimes = phaseTimes(workloads.before);
  // The before disk's workloads are those timed on the disk the after run measured: nothing tells them apart.
  const afterTimes = workloads.before.some((r) => sameDisk(r, after)) ? null : phaseTimes(workloads.after);
  return forecast.candidates.map((c) => ({
    name: c.capped.candidate.name,
    origin: c.capped.candidate.originText,
    workloads: judgedWorkloads(c, beforeTimes, afterTimes, after),
    figures: FIGURE_KEYS.flatMap((key): JudgedFigure[] => {
      const here = c.capped.figures[key].here;
      const today = forecast.current.figures[key];
      const b = was[key];
      const a = now[key];
      if (here === null || today === null || !today || b === null || !b || a === null) return [];
      return [judgedRate(key, here / today, a / b, before, after)];
    }),
  }));
}
