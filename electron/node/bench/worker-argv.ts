// Spec → the worker's argv, from enums and numbers only: no caller text reaches a flag
// except the target path, which is passed as one argv element (never through a shell).
import { rateTestParams } from '../../shared/model/catalog.ts';
import { jobText } from '../../shared/model/test-params.ts';
import type { Statistic, TestParams } from '../../shared/model/results.ts';
import { RUN_SETTINGS, settingsOfKind, type KindSettingValues, type RunSettingDef } from '../../shared/model/run-settings.ts';
import { workerOption, WORKER_OPTIONS, type WorkerOption, type WorkerVerb } from '../../shared/model/worker-options.ts';
import { TRUST } from '../../shared/analysis/statistics.ts';
import { STEADY_MAX_ROUNDS } from '../../shared/analysis/steady-state.ts';

/**
 * The rate kind's plan: the run settings the table says it takes (model/run-settings.ts: size,
 * duration, warm-up, runs, the fewest or exact; precision, 0 for a fixed count; …) and its own.
 */
export interface WorkerPlan extends KindSettingValues<'rate'> {
  target: string;
  /** Test ids of the rate kind. */
  tests: string[];
  sampleMs: number;
  /** How each test's runs become its figure (the preset's: CrystalDiskMark's profiles keep the best run). */
  statistic: Statistic;
  /** Harness only: reuse a file made by `diskdelta-worker prepare`. */
  reuseFile?: string;
  /** SNIA steady state (the steady preset): runs are rounds, stopped by the worker's PTS rule. */
  steady?: boolean;
}

/** The worker job's parameters of a rate test: the catalog's, or those its id names (test-params.ts). */
export function rateParams(id: string): TestParams {
  const params = rateTestParams(id);
  if (!params) throw new Error(`${id} is not a rate test: neither in the catalog nor an id of its parameters`);
  return params;
}

/** A test's --job value, from the parameter key table (test-params.ts). */
export function jobSpec(id: string): string {
  return jobText(id, rateParams(id));
}

/** An option value: a flag is sent when true, a list once per element, undefined never. */
export type ArgValue = string | number | boolean | readonly string[] | undefined;

/**
 * THE argv builder: a verb and its options' values, by worker option name (worker-options.ts).
 * An option the verb does not take throws here, as the worker would refuse it (exit 2); values
 * are written by the option's kind (bytes whole). Every worker invocation goes through it, by
 * one of the per-verb builders below.
 */
export function workerCommand(
  verb: WorkerVerb,
  values: Record<string, ArgValue>,
  options: readonly WorkerOption[] = WORKER_OPTIONS,
): string[] {
  const argv: string[] = [verb];
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === false) continue;
    const option = workerOption(name, options);
    if (!option) throw new Error(`the worker has no option --${name} (worker-options.ts)`);
    if (!option.verbs.includes(verb)) throw new Error(`--${name} is not an option of the worker's ${verb} verb (worker-options.ts)`);
    if (option.kind === 'flag') {
      argv.push(`--${name}`);
      continue;
    }
    const list: ReadonlyArray<string | number | boolean> = Array.isArray(value) ? value : [value as string | number];
    for (const v of list) argv.push(`--${name}`, option.kind === 'bytes' ? String(Math.floor(Number(v))) : String(v));
  }
  return argv;
}

/** The worker options of the run settings a kind takes, from a plan (run-settings.ts: each setting names its option). */
export function settingOptions(plan: object, kind: string, settings: readonly RunSettingDef[] = RUN_SETTINGS): Record<string, ArgValue> {
  const values = plan as Record<string, ArgValue>;
  return Object.fromEntries(settingsOfKind(kind, settings).flatMap((d) => (d.worker ? [[d.worker, values[d.key]]] : [])));
}

/** `run`: the rate tests of a plan, each a --job. */
export function runArgv(
  plan: WorkerPlan,
  tables: { settings?: readonly RunSettingDef[]; options?: readonly WorkerOption[] } = {},
): string[] {
  const fromSettings = settingOptions(plan, 'rate', tables.settings);
  // A fixed count of runs (precision 0) has no interval to reach and no time limit to send.
  const adaptive = plan.precision > 0 && !plan.steady;
  if (!adaptive) {
    delete fromSettings.precision;
    delete fromSettings['max-time'];
  }
  return workerCommand(
    'run',
    {
      target: plan.target,
      ...fromSettings,
      'sample-ms': plan.sampleMs,
      // A test stops once precise and resolved (TRUST), or at its time limit.
      ...(adaptive ? { 'min-ios': TRUST.minTotalIos, 'min-time': TRUST.minWindowSec, 'min-window-ios': TRUST.minWindowIos } : {}),
      // Rounds from --runs (the fewest) until steady or STEADY_MAX_ROUNDS.
      ...(plan.steady ? { steady: true, 'max-runs': Math.max(STEADY_MAX_ROUNDS, plan.runs) } : {}),
      file: plan.reuseFile,
      job: plan.tests.map((id) => jobSpec(id)),
    },
    tables.options,
  );
}

/** `tree`: the source-tree workload (or a tarball, extracted). */
export function treeArgv(o: {
  target: string;
  runs: number;
  warmupPasses: number;
  files?: number;
  bytes?: number;
  tarball?: string | undefined;
  pause?: boolean;
}): string[] {
  return workerCommand('tree', {
    target: o.target,
    runs: o.runs,
    'warmup-passes': o.warmupPasses,
    'tree-files': o.files,
    'tree-bytes': o.bytes,
    tarball: o.tarball,
    pause: o.pause,
  });
}

/** `bigfile`: one file of sizeBytes (the worker shrinks it to what fits) written and deleted. */
export function bigfileArgv(o: { target: string; sizeBytes: number; runs: number; warmupPasses: number }): string[] {
  return workerCommand('bigfile', { target: o.target, runs: o.runs, 'warmup-passes': o.warmupPasses, size: o.sizeBytes });
}

/** `app-start`: programs starting at once from a cold cache (the helper drops it when given). */
export function appStartArgv(o: {
  target: string;
  runs: number;
  warmupPasses: number;
  readers: number;
  helper?: string | undefined;
}): string[] {
  return workerCommand('app-start', {
    target: o.target,
    runs: o.runs,
    'warmup-passes': o.warmupPasses,
    readers: o.readers,
    helper: o.helper,
  });
}

/** `working-set`: the scan of one folder on its one mount (reads no file). */
export function workingSetArgv(o: { target: string }): string[] {
  return workerCommand('working-set', { target: o.target });
}

/** `record`: the fanotify recorder of one filesystem's accesses into a trace (until seconds, or a signal). */
export function recordArgv(o: { target: string; trace: string; seconds: number; mergeMs?: number; helper?: string | null }): string[] {
  return workerCommand('record', {
    target: o.target,
    trace: o.trace,
    seconds: o.seconds,
    'merge-ms': o.mergeMs,
    helper: o.helper ?? undefined,
  });
}

/** The sustained-write kind's plan: its run settings (model/run-settings.ts) and the interval it logs at. */
export interface SustainedPlan extends KindSettingValues<'sustained-write'> {
  target: string;
  sampleMs: number;
}

/** `sustained`: one stream past the cache, then (recovery bytes > 0) a second one after the rest. */
export function sustainedArgv(plan: SustainedPlan): string[] {
  return workerCommand('sustained', { target: plan.target, ...settingOptions(plan, 'sustained-write'), 'sample-ms': plan.sampleMs });
}

/** The surface kind's plan: its run settings (model/run-settings.ts), the device and the read size. */
export interface SurfacePlan extends KindSettingValues<'surface'> {
  target: string;
  block: number;
}

/** `surface`: read-only samples spread over the whole device, then the access time's random reads. */
export function surfaceArgv(plan: SurfacePlan): string[] {
  return workerCommand('surface', { target: plan.target, ...settingOptions(plan, 'surface'), block: plan.block });
}
