// The sustained-write kind (issue "What decides an SSD purchase"): one sequential stream of
// writes past the drive's fast (SLC) cache, then, after an idle rest, a second stream that shows
// how much of the cache came back. The worker's `sustained` verb writes and logs the rate per
// interval; analysis/sustained-write.ts finds the cliff, the speeds and the recovery. A stop
// keeps what was measured (KindStep.keepsWhenStopped): the worker reports the cut stream too.
import { statfsSync } from 'node:fs';
import { z } from 'zod';
import {
  analyzeSustained,
  buyerSentence,
  decimalBytes,
  durationWords,
  sustainedCostText,
  fallWhileBusy,
  type SustainedCliff,
  type SustainedInterval,
  type SetAsideFall,
  type SustainedAnalysis,
  type SustainedStream,
} from '../../../shared/analysis/sustained-write.ts';
import type { FailureSurface } from '../../../shared/model/failures.ts';
import { formatBytes, formatThroughput } from '../../../shared/analysis/units.ts';
import { counted } from '../../../shared/model/display.ts';
import type { Figure, RunMeasurement, Sample, TestResult, Warning } from '../../../shared/model/results.ts';
import { SUSTAINED_NOT_JUDGED, SUSTAINED_TEST } from '../../../shared/analysis/sustained-write.ts';
import { planSettingsShape, resolveSettings, settingsOfKind } from '../../../shared/model/run-settings.ts';
import { BenchError } from '../errors.ts';
import { byteProgress } from '../progress.ts';
import { sustainedArgv, type SustainedPlan } from '../worker-argv.ts';
import type { WorkerMessage } from '../worker-protocol.ts';
import type { MeasurementKind } from './kind.ts';

export { SUSTAINED_TEST } from '../../../shared/analysis/sustained-write.ts';

type PhaseLine = Extract<WorkerMessage, { type: 'sustained-phase' }>;
type StreamName = PhaseLine['phase'];

/** Twice a second, as TechPowerUp logs it: enough to place a cliff (interpolated inside its interval). */
export const SUSTAINED_SAMPLE_MS = 500;
/** The worker's own headroom on the filesystem (target.c): a span must leave it free. */
const HEADROOM = 16 * 2 ** 20;
const MIN_SPAN = 64 * 2 ** 20;
/** At most this many samples are stored per stream (adjacent intervals merged): a chart shows no more. */
export const STORED_SAMPLES = 2000;

const planSchema: z.ZodType<SustainedPlan> = z.strictObject({
  target: z.string().min(1),
  ...planSettingsShape('sustained-write'),
  sampleMs: z.number().int().min(50).max(10_000),
});

/** The free bytes of the target folder's filesystem, or null when it cannot be asked (the worker then says why). */
function freeBytes(target: string): number | null {
  try {
    const s = statfsSync(target);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/** Refused before anything is written: a span the filesystem cannot hold, or a filesystem too small for any. */
export function refuseSpanBeyondFree(target: string, span: number, free: number | null = freeBytes(target)): void {
  if (free === null) return;
  const room = Math.floor(Math.max(0, free - HEADROOM) / 2 ** 20) * 2 ** 20;
  if (room < MIN_SPAN)
    throw new BenchError(
      'span-no-space',
      `the filesystem of ${target} has ${formatBytes(free)} free: too small for a sustained write, which needs at least ${formatBytes(MIN_SPAN + HEADROOM)} free. Free some space or choose a folder on a larger disk`,
    );
  if (span > room)
    throw new BenchError(
      'span-no-space',
      `the sustained write would write ${formatBytes(span)}, but the filesystem of ${target} has ${formatBytes(free)} free: lower the bytes to write to at most ${formatBytes(room)}, or free some space`,
    );
}

/**
 * What the run will cost, said before it starts: bytes written, the time at a fast and a slow
 * drive's speed, the share of the rated endurance where it was given. The text is New run's too
 * (analysis/sustained-write.ts), in the words of where it is shown: the CLI may name its flag.
 */
export function costWarning(plan: SustainedPlan, surface: FailureSurface = 'app'): Warning {
  return { code: 'sustained-write-cost', message: sustainedCostText(plan, surface) };
}

/** Adjacent intervals merged pairwise until at most `max` remain: the bytes and time they cover stay exact. */
export function mergeIntervals(xs: readonly SustainedInterval[], max = STORED_SAMPLES): SustainedInterval[] {
  let out = [...xs];
  while (out.length > max) {
    const next: SustainedInterval[] = [];
    for (let i = 0; i < out.length; i += 2) {
      const a = out[i]!;
      const b = out[i + 1];
      next.push(b ? { bytes: b.bytes, intervalBytes: a.intervalBytes + b.intervalBytes, intervalNs: a.intervalNs + b.intervalNs } : a);
    }
    out = next;
  }
  return out;
}

/** A stream's intervals as stored samples: tMs at each interval's end, its rate, and I/Os per second of its blocks. */
export function samplesOf(xs: readonly SustainedInterval[], block: number): Sample[] {
  let ns = 0;
  return mergeIntervals(xs).map((x) => {
    ns += x.intervalNs;
    const bytesPerSec = x.intervalNs > 0 ? (x.intervalBytes * 1e9) / x.intervalNs : 0;
    return { tMs: ns / 1e6, bytesPerSec, iops: bytesPerSec / block };
  });
}

function measurement(run: number, line: PhaseLine, xs: readonly SustainedInterval[]): RunMeasurement {
  const sec = line.elapsed_ns / 1e9;
  return {
    run,
    bytesPerSec: sec > 0 ? line.bytes / sec : 0,
    iops: sec > 0 ? line.ios / sec : 0,
    latencyNs: { mean: line.lat_mean_ns, p50: null, p90: null, p99: null, p999: null, max: line.lat_max_ns },
    elapsedNs: line.elapsed_ns,
    ios: line.ios,
    bytes: line.bytes,
    cpu: { userNs: line.user_ns, systemNs: line.sys_ns },
    samples: samplesOf(xs, line.block),
  };
}

const pct = (x: number | null) => (x === null ? 'unknown' : `${(x * 100).toFixed(1)} %`);

function cpuWords(fall: SustainedCliff): string {
  const wait = fall.cpuWait!;
  const pct = (x: number) => `${Math.round(x * 100)} %`;
  return `other processes took the CPU: the writer waited for one ${pct(wait.during)} of the time while it lasted (${pct(wait.before)} before it)`;
}

const SET_ASIDE_WHY: Record<SetAsideFall['why'], string> = {
  short: 'it did not last (a drive past its cache stays slow): not called a cache; write more to see whether it holds',
  noise: "it stood within the stream's own noise: not called a cache",
  dip: 'the speed came back after it: a dip, not a cache running out',
  busy: "it came with the writer waiting for a CPU, so it may be the machine's, not the drive's: not called a cache; measure again when the machine is idle",
};

/** The falls the analysis set aside, said with why, and the other processes' CPU use where it came with them. */
export function fallWarnings(setAside: readonly SetAsideFall[]): Warning[] {
  const where = (f: SustainedCliff) =>
    `the speed fell from ${formatThroughput(f.beforeBytesPerSec)} to ${formatThroughput(f.afterBytesPerSec)} at ${decimalBytes(f.atBytes)} written, for ${counted(f.lastedIntervals, 'interval')} (${f.lastedSec.toFixed(1)} s)`;
  return setAside.map((f) => ({
    code: 'sustained-fall-set-aside',
    message: `${where(f)}: ${SET_ASIDE_WHY[f.why]}${fallWhileBusy(f) ? `; ${cpuWords(f)}` : ''}`,
  }));
}

/**
 * Other processes took the CPU from the writer in some intervals; said unless a fall set aside
 * as the machine's already says it (fallWarnings).
 */
export function starvedWarning(a: Pick<SustainedAnalysis, 'starved' | 'setAside'>): Warning | null {
  const s = a.starved;
  if (!s || a.setAside.some(fallWhileBusy)) return null;
  const elsewhere = s.elsewhereBytesPerSec === null ? '' : ` against ${formatThroughput(s.elsewhereBytesPerSec)} in the others`;
  return {
    code: 'sustained-writer-busy',
    message:
      `other processes took the CPU: in ${s.count} of ${counted(s.of, 'interval')} (between ${decimalBytes(s.fromBytes)} and ${decimalBytes(s.toBytes)} written) ` +
      `the writer waited for one ${Math.round(s.wait * 100)} % of the time, and wrote ${formatThroughput(s.bytesPerSec)}${elsewhere}: ` +
      `those intervals may show the machine, not the drive; measure again when the machine is idle`,
  };
}

/** The result of a sustained write from the worker's stream lines and intervals. */
export function sustainedResult(
  plan: SustainedPlan,
  lines: ReadonlyMap<StreamName, PhaseLine>,
  intervals: ReadonlyMap<StreamName, SustainedInterval[]>,
): TestResult | null {
  const fillLine = lines.get('fill');
  if (!fillLine) return null;
  const stream = (line: PhaseLine): SustainedStream => ({
    bytes: line.bytes,
    elapsedNs: line.elapsed_ns,
    restNs: line.rest_ns,
    complete: line.complete,
    intervals: intervals.get(line.phase) ?? [],
  });
  const recoveryLine = lines.get('recovery');
  const a = analyzeSustained(stream(fillLine), recoveryLine ? stream(recoveryLine) : null);
  const interval = `${SUSTAINED_SAMPLE_MS} ms`;
  const shape = `${formatBytes(fillLine.block)} writes, ${fillLine.depth} in flight`;
  const figures: Figure[] = [
    {
      metric: 'cacheBytes',
      subject: '',
      value: a.cacheBytes,
      unit: 'bytes',
      provenance: 'measured',
      basis:
        a.notJudged !== null
          ? a.notJudged
          : a.cacheBytes === null && a.setAside.length > 0
            ? `no fall was called a cache within ${decimalBytes(fillLine.bytes)} written (${counted(a.setAside.length, 'fall')} set aside: the warnings say why)`
            : a.cacheBytes === null
              ? `the speed never fell to 1/1.25 or below within ${decimalBytes(fillLine.bytes)} written`
              : `bytes written when the speed first fell (interpolated inside its ${interval} interval), of ${decimalBytes(fillLine.bytes)} in one stream of ${shape}`,
    },
    {
      metric: 'sustainedBytesPerSec',
      subject: 'in the cache',
      value: a.before.bytesPerSec,
      unit: 'bytes/s',
      provenance: 'measured',
      basis: `${counted(a.before.intervals, 'interval')} of ${interval} ${a.cacheBytes === null ? 'over the whole stream (the first left out)' : 'before the fall (the first and the mixed ones left out)'}, spread ${pct(a.before.spread)}`,
    },
  ];
  if (a.after)
    figures.push({
      metric: 'sustainedBytesPerSec',
      subject: 'past the cache',
      value: a.after.bytesPerSec,
      unit: 'bytes/s',
      provenance: 'measured',
      basis: `${counted(a.after.intervals, 'interval')} of ${interval} after the fall, spread ${pct(a.after.spread)}: ${buyerSentence(a, fillLine.bytes)}`,
    });
  a.cliffs.slice(1).forEach((c, i) =>
    figures.push({
      metric: 'cacheBytes',
      subject: `fall ${i + 2}`,
      value: c.atBytes,
      unit: 'bytes',
      provenance: 'measured',
      basis: `a later fall, from ${formatThroughput(c.beforeBytesPerSec)} to ${formatThroughput(c.afterBytesPerSec)}`,
    }),
  );
  if (recoveryLine)
    figures.push({
      metric: 'recoveredBytes',
      subject: '',
      value: a.recovery?.regainedBytes ?? null,
      unit: 'bytes',
      provenance: 'measured',
      basis: a.recovery
        ? `${a.recovery.atLeast ? 'at least (the stream after the rest never slowed down): ' : ''}bytes written at the cache's speed after ${durationWords(a.recovery.restSec)} idle, from the stream's time and the two speeds`
        : 'not found: the first stream showed no fall, so there is no speed past the cache to tell the two apart',
    });
  const warnings: Warning[] = fallWarnings(a.setAside);
  const starved = starvedWarning(a);
  if (starved) warnings.push(starved);
  if (!fillLine.complete)
    warnings.push({
      code: 'sustained-stopped',
      message: `stopped after ${decimalBytes(fillLine.bytes)} of ${decimalBytes(fillLine.planned_bytes)}: the figures are of what was written`,
    });
  if (a.notJudged !== null) warnings.push({ code: SUSTAINED_NOT_JUDGED, message: `the drive's fast cache is ${a.notJudged}` });
  else if (a.cacheBytes === null && a.setAside.length === 0)
    warnings.push({
      code: 'sustained-no-fall',
      message: `the write speed never fell within ${decimalBytes(fillLine.bytes)}: the drive's fast cache is larger (or it has none); write more to find it`,
    });
  const runs = [measurement(1, fillLine, intervals.get('fill') ?? [])];
  if (recoveryLine) runs.push(measurement(2, recoveryLine, intervals.get('recovery') ?? []));
  const bytesPerSec = a.after?.bytesPerSec ?? a.before.bytesPerSec;
  return {
    test: SUSTAINED_TEST,
    params: null,
    bytesPerSec,
    iops: bytesPerSec / fillLine.block,
    latencyNs: runs[0]!.latencyNs,
    best: null,
    cv: null,
    runs,
    histogram: [],
    cpu: { userNs: runs.reduce((n, r) => n + r.cpu.userNs, 0), systemNs: runs.reduce((n, r) => n + r.cpu.systemNs, 0) },
    underResolved: false,
    statistic: 'single',
    warnings,
    figures,
  };
}

export const sustainedWriteKind: MeasurementKind<SustainedPlan> = {
  id: 'sustained-write',
  title: 'Sustained write (past the fast cache)',
  measuresDisk: true,
  stepPerTest: true,
  planSchema,
  plan(spec, preset) {
    const values = resolveSettings('sustained-write', spec, { ...preset });
    refuseSpanBeyondFree(spec.target, values.sustainedSpanBytes);
    return {
      ...values,
      // The recovery rewrites the same file from its start: at most the span.
      sustainedRecoveryBytes: Math.min(values.sustainedRecoveryBytes, values.sustainedSpanBytes),
      target: spec.target,
      sampleMs: SUSTAINED_SAMPLE_MS,
    };
  },
  writes: () => true,
  start(plan, context) {
    const lines = new Map<StreamName, PhaseLine>();
    const intervals = new Map<StreamName, SustainedInterval[]>();
    const startedMs = Date.now();
    context.emit({ type: 'warning', ...costWarning(plan, context.surface) });
    return {
      argv: sustainedArgv(plan),
      keepsWhenStopped: true,
      read(m) {
        if (m.type === 'sustained-sample') {
          const list = intervals.get(m.phase) ?? [];
          intervals.set(m.phase, list);
          list.push({
            bytes: m.bytes,
            intervalBytes: m.interval_bytes,
            intervalNs: m.interval_ns,
            ...(m.cpu_wait_ns !== undefined && m.interval_ns > 0 ? { cpuWait: m.cpu_wait_ns / m.interval_ns } : {}),
          });
          const bytesPerSec = m.interval_ns > 0 ? (m.interval_bytes * 1e9) / m.interval_ns : 0;
          context.emit({
            type: 'sample',
            test: SUSTAINED_TEST,
            run: m.phase === 'fill' ? 1 : 2,
            tMs: m.t_ms,
            bytesPerSec,
            iops: bytesPerSec / plan.sustainedBlockBytes,
          });
        } else if (m.type === 'sustained-phase') lines.set(m.phase, m);
        else if (m.type === 'progress') {
          const { fraction, etaSec } = byteProgress(m.done_bytes ?? 0, m.total_bytes ?? 1, startedMs);
          context.emit({
            type: 'progress',
            test: SUSTAINED_TEST,
            testIndex: 0,
            testCount: 1,
            phase: 'measure',
            run: lines.has('fill') ? 2 : 1,
            runs: plan.sustainedRecoveryBytes > 0 ? 2 : 1,
            fraction,
            // At the speed so far; a drive past its cache slows down, so this estimate only grows.
            etaSec,
          });
        }
      },
      results() {
        const result = sustainedResult(plan, lines, intervals);
        return result ? [result] : [];
      },
      settings: (hello) => {
        const { ratedEnduranceBytes, ...kept } = Object.fromEntries(settingsOfKind('sustained-write').map((d) => [d.key, plan[d.key]]));
        return {
          ...kept,
          // A rating given is part of the run's context; 0 (not given) is not a rating to store.
          ...(ratedEnduranceBytes ? { ratedEnduranceBytes } : {}),
          sustainedSpanBytes: hello?.size ?? plan.sustainedSpanBytes,
        };
      },
    };
  },
};
