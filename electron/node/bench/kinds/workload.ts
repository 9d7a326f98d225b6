// The workload kind: timed file-system work a person feels (the seed's "extract the kernel,
// sync; delete it, sync", a 3 GB file, programs starting at once). Each test is one worker verb
// (tree, bigfile, app-start); its passes report seconds per phase, aggregated here into the
// median with the spread, as Figures (metric phaseSeconds, lower is better).
import { z } from 'zod';
import type { Figure, Warning } from '../../../shared/model/results.ts';
import { resultWithoutRuns } from '../../formats/common.ts';
import { coefficientOfVariation, median, medianInterval, passesNoisy } from '../../../shared/analysis/statistics.ts';
import type { WorkerMessage } from '../worker-protocol.ts';
import type { MeasurementKind } from './kind.ts';
import { counted } from '../../../shared/model/display.ts';
import { planSettingsShape } from '../../../shared/model/run-settings.ts';
import { appStartArgv, bigfileArgv, treeArgv } from '../worker-argv.ts';
import { maxOf, minOf } from '../../../shared/model/extremes.ts';
import { formatCount } from '../../../shared/analysis/units.ts';

type Phase = Extract<WorkerMessage, { type: 'phase' }>;
type WorkloadInfo = Extract<WorkerMessage, { type: 'workload' }>;

/** The seed's tree (shared/reference/seed-figures.md): Linux 3.9.1 unpacked, 45,168 files, 592 MB. */
export const SEED_TREE = { files: 45_168, bytes: 592_000_000 } as const;
/** The seed's big file: "a 3 GB file". */
export const BIGFILE_BYTES = 3_000_000_000;

/** Each workload test is one worker verb, built by that verb's argv builder (worker-argv.ts). */
const WORKLOADS = {
  tree: (p: WorkloadPlan) => treeArgv(p),
  'tree-3.9.1': (p: WorkloadPlan) => treeArgv({ ...p, files: SEED_TREE.files, bytes: SEED_TREE.bytes }),
  bigfile: (p: WorkloadPlan) => bigfileArgv(p),
  'app-start': (p: WorkloadPlan) => appStartArgv(p),
  // The user's own tarball (spec.tarball), extracted by tar(1) in the worker's tree verb.
  tarball: (p: WorkloadPlan) => treeArgv(p),
} as const;
type WorkloadTest = keyof typeof WORKLOADS;

export interface WorkloadPlan {
  target: string;
  test: WorkloadTest;
  runs: number;
  warmupPasses: number;
  /** bigfile: bytes (the worker shrinks it to what fits, warning). */
  sizeBytes: number;
  /** app-start: programs starting at once. */
  readers: number;
  /** tarball: the file to extract (absolute). */
  tarball?: string | undefined;
  /** app-start as a user who is not root: the helper that drops the page cache. */
  helper?: string | undefined;
}

const planSchema: z.ZodType<WorkloadPlan> = z
  .strictObject({
    target: z.string().min(1),
    test: z.enum(Object.keys(WORKLOADS) as [WorkloadTest, ...WorkloadTest[]]),
    warmupPasses: z.number().int().min(0).max(10),
    ...planSettingsShape('workload'),
    readers: z.number().int().min(1).max(64),
    tarball: z.string().startsWith('/').optional(),
  })
  .refine((p) => p.test !== 'tarball' || p.tarball !== undefined, {
    message: 'the tarball workload needs a tarball to extract: give the path of a .tar, .tar.gz or .tar.xz file',
  });

/** The worker's argv for one workload: enums and numbers only. */
export function workloadArgv(plan: WorkloadPlan, helper?: string): string[] {
  return WORKLOADS[plan.test]({ ...plan, helper });
}

// Two significant figures below 0.1 s: a fast disk's 7.9 ms delete must not read "0.01 s", nor a range "0.01 s–0.01 s".
const seconds = (s: number) => `${s >= 10 ? s.toFixed(1) : s >= 0.1 ? s.toFixed(2) : s.toPrecision(2)} s`;

/** What was written or read, in words, for a figure's basis. */
function describeWork(info: WorkloadInfo | null): string {
  if (!info) return '';
  const mb = `${formatCount(info.bytes / 1e6)} MB`;
  if (info.workload === 'tree' && info.source === 'tarball')
    return `${info.shape ?? 'the tarball'} extracted by tar: ${formatCount(info.files)} files, ${mb}`;
  if (info.workload === 'tree')
    return `${info.scaled ? 'scaled ' : ''}${info.shape ?? 'release'} tree: ${formatCount(info.files)} files, ${mb}`;
  if (info.workload === 'app-start')
    return `${info.readers ?? 'an unreported number of'} programs (${info.mix} mix): ${info.files} files, ${mb}`;
  return `one file of ${mb}`;
}

/**
 * One figure per phase: the median of the timed passes (warm-ups left out) with their range and,
 * for app-start, the spread between the first and last program to finish.
 */
export function phaseFigures(passes: Phase[], info: WorkloadInfo | null): Figure[] {
  const timed = passes.filter((p) => !p.warmup);
  const names = [...new Set(timed.map((p) => p.phase))];
  return names.map((phase) => {
    const of = timed.filter((p) => p.phase === phase);
    const values = of.map((p) => p.seconds);
    const spreads = of.flatMap((p) => (p.spread_seconds === undefined ? [] : [p.spread_seconds]));
    const range = values.length > 1 ? ` (${seconds(minOf(values)!)}–${seconds(maxOf(values)!)})` : '';
    const spread = spreads.length ? `; first to last program ${seconds(median(spreads))}` : '';
    const sync = phase === 'start' ? '' : ', syncfs included';
    return {
      metric: 'phaseSeconds',
      subject: phase,
      value: median(values),
      unit: 's',
      provenance: 'measured',
      basis: `median of ${counted(values.length, 'run')}${range}${sync}${spread}; ${describeWork(info)}`,
      passes: values,
    };
  });
}

const pct = (x: number) => `${Math.round(x * 100)} %`;

/**
 * The rates' trust rules (bench/aggregate.ts, TRUST) on each phase's passes: passes that differ
 * by more than TRUST.maxCv, or a median known only within more than ±TRUST.maxCiRelative (three
 * passes or more), are flagged noisy, so "21.69 s, median of 3 runs (4.77 s–26.4 s)" is never
 * printed as if it were a steady figure. Used by every kind that times phases (workloads, discard-cost).
 */
export function phaseTrustWarnings(figures: readonly Figure[]): Warning[] {
  return figures.flatMap((f): Warning[] => {
    const values = f.passes ?? [];
    if (values.length < 2 || f.value === null) return [];
    if (!passesNoisy(values)) return [];
    const cv = coefficientOfVariation(values);
    const ci = medianInterval(values);
    return [
      {
        code: 'noisy',
        message:
          `${f.subject}: the ${values.length} passes differ by ${pct(cv ?? 0)} (${seconds(minOf(values)!)}–${seconds(maxOf(values)!)}; coefficient of variation)` +
          `${ci === null ? '' : `, so the median ${seconds(f.value)} is known within ±${pct(ci)} (95 %)`}` +
          ': something else is using the disk or the CPU; measure again with more runs, or on a quiet machine',
      },
    ];
  });
}

export const workloadKind: MeasurementKind<WorkloadPlan> = {
  id: 'workload',
  title: 'Workloads (seconds per phase)',
  measuresDisk: true,
  stepPerTest: true,
  planSchema,
  plan: (spec, preset, tests) => {
    const test = tests[0] ?? '';
    return {
      target: spec.target,
      test: test as WorkloadTest,
      // The seed averaged three passes after warm-up rounds (a rate preset's runs are not passes).
      runs: spec.runs ?? (preset.name === 'workloads' ? preset.runs : 3),
      warmupPasses: 1,
      sizeBytes: spec.sizeBytes ?? (preset.name === 'workloads' ? preset.sizeBytes : BIGFILE_BYTES),
      readers: 4,
      ...(spec.tarball ? { tarball: spec.tarball } : {}),
    };
  },
  writes: () => true,
  start(plan, context) {
    const passes: Phase[] = [];
    let info: WorkloadInfo | null = null;
    const total = plan.warmupPasses + plan.runs;
    return {
      argv: workloadArgv(plan, plan.test === 'app-start' ? context.cacheHelper : undefined),
      read(m) {
        if (m.type === 'workload') info = m;
        else if (m.type === 'phase') {
          passes.push(m);
          const done = new Set(passes.map((p) => p.run)).size;
          context.emit({
            type: 'progress',
            test: plan.test,
            testIndex: 0,
            testCount: 1,
            phase: m.warmup ? 'warmup' : 'measure',
            run: m.run,
            runs: plan.runs,
            fraction: Math.min(1, done / total),
            etaSec: null,
          });
        }
      },
      results() {
        if (passes.length === 0) return [];
        const warnings: Warning[] = [];
        if (passes.some((p) => p.cold === 'fadvise'))
          warnings.push({
            code: 'cold-cache-partial',
            message:
              "only the programs' own file pages were evicted (not root, no helper): folders and inodes stayed cached, so an HDD's seeks are undercounted. Run as root, or let the helper drop the cache: `diskdelta run --elevate` (the app asks by itself) once it is installed (sudo npx diskdelta helper install)",
          });
        const figures = phaseFigures(passes, info);
        warnings.push(...phaseTrustWarnings(figures));
        return [resultWithoutRuns({ test: plan.test, params: null, bytesPerSec: null, iops: null, warnings, figures })];
      },
      settings: () => ({ runs: plan.runs }),
    };
  },
};
