// A benchmark run from spec to RunRecord: plan → one step per measurement kind (worker argv
// or in-process) → read its messages → aggregate → one record. The kinds table
// (kinds/index.ts) knows each kind's tests, messages and figures; this module only sequences
// them. Used unchanged by the CLI, the app's API and the tests.
import { stat } from 'node:fs/promises';
import { kindOfTest } from '../../shared/model/catalog.ts';
import type { DriveTemperature, RunRecord, RunSettings, TestResult, Warning } from '../../shared/model/results.ts';
import type { DriveCounters } from '../../shared/model/schemas.ts';
import { describeTarget, readFillLevel, watchOtherCpu } from '../system/index.ts';
import { readDriveHealth } from './privilege/drive-health-read.ts';
import { readWriteCounters } from '../system/write-counters.ts';
import { driveWarnings } from '../../shared/analysis/drive-health.ts';
import { machineBusyWarning } from './result-warnings.ts';
import { BenchError } from './errors.ts';
import { kindById } from './kinds/index.ts';
import type { KindStep, MeasurementKind, StepContext, WorkerHello } from './kinds/kind.ts';
import { DEFAULT_PRESET, PRESETS } from '../../shared/catalog/presets.ts';
import { benchSpecSchema, type BenchEvent, type BenchSpec } from '../../shared/model/spec.ts';
import { runWorker, locateWorker } from './worker-client.ts';
import { runCleanup } from './cleanup.ts';
import { isOwnThrowawayDevice } from '../system/throwaway-devices.ts';
import { nameFromDevNumber } from '../system/stack.ts';
import { devNumberOf } from '../system/sysfs.ts';
import { cacheDropHelper, deviceAccessArgs, locateHelper, needsElevation, type LocateOptions } from './privilege/elevation.ts';
import { acquireDiskLock } from './disk-lock.ts';
import { withStderr } from '../../shared/model/stderr-tail.ts';
import { counted } from '../../shared/model/display.ts';
import { exitCodeOf, type FailureSurface } from '../../shared/model/failures.ts';
import { checkTarget } from './target-check.ts';
import { watchTemperature, type TemperatureWatchOptions } from './temperature-watch.ts';
import { thermalWarnings } from '../../shared/analysis/thermal.ts';

export interface RunOptions {
  onEvent?: (event: BenchEvent) => void;
  signal?: AbortSignal;
  workerPath?: string;
  /** Harness only (bench:vs-fio): reuse a file made by `diskdelta-worker prepare`. */
  reuseFile?: string;
  /** Where the privileged helper is (elevation.ts); default: installed, else the AppImage's. */
  helper?: LocateOptions;
  /** The app's session holder of this device's descriptor (elevation-session.ts). */
  fdFrom?: string;
  /** Where the drive's temperature is read (a planted sysfs tree in tests) and how often. */
  temperature?: TemperatureWatchOptions;
  /** Where the run's warnings are shown: the CLI's may name its flags, the app's (the default) never. */
  surface?: FailureSurface;
  /**
   * A stop (the signal) keeps the tests that had finished, the run marked as cut short
   * (warning CUT_SHORT), instead of cancelling it whole; the test it stopped in is dropped.
   */
  keepFinished?: boolean;
}

/** The warning of a run stopped part-way whose finished tests were kept (RunOptions.keepFinished). */
export const CUT_SHORT = 'cut-short';

export const ENGINE_NAME = 'diskdelta';

/** The tests of one kind, in the order asked, with that kind's validated plan. */
export interface PlannedStep {
  kind: MeasurementKind<unknown>;
  tests: string[];
  plan: unknown;
}

function invalid(where: string, error: { issues: Array<{ path: PropertyKey[]; message: string }> }): BenchError {
  const issue = error.issues[0];
  return new BenchError(
    'usage',
    `invalid benchmark request: ${[where, ...(issue?.path ?? []).map(String)].filter(Boolean).join('.') || 'spec'}: ${issue?.message}`,
  );
}

/** Resolves the spec against its preset: what will actually run, kind by kind, with every default filled. */
export async function planRun(input: BenchSpec): Promise<{ steps: PlannedStep[]; warnings: Warning[]; spec: BenchSpec }> {
  const parsed = benchSpecSchema.safeParse(input);
  if (!parsed.success) throw invalid('', parsed.error);
  const spec = parsed.data;
  const preset = PRESETS[spec.preset ?? DEFAULT_PRESET];
  let tests: string[] = spec.tests ?? preset.tests;
  const warnings: Warning[] = [];
  const kindOf = (test: string): MeasurementKind<unknown> => {
    const id = kindOfTest(test);
    const kind = id ? kindById(id) : undefined;
    if (!kind) throw new BenchError('usage', `no measurement kind runs the test '${test}'`);
    return kind;
  };
  const writes = (test: string) => kindOf(test).writes(test);
  const isDevice = await stat(spec.target).then(
    (s) => s.isBlockDevice(),
    () => false,
  );
  // Read-only mode (worn or precious drives) writes nothing: not a write test, not a test file.
  if (spec.readOnly) {
    if (!isDevice) {
      throw new BenchError(
        'read-only-mode',
        `read-only mode writes nothing, but measuring the folder ${spec.target} needs a test file written in it: measure the disk's block device instead (e.g. /dev/sdb), or measure without read-only mode`,
      );
    }
    const writing = tests.filter(writes);
    if (writing.length > 0 && spec.tests) {
      throw new BenchError(
        'read-only-mode',
        `read-only mode runs read tests only, so the write tests ${writing.join(', ')} were refused: leave them out, or measure without read-only mode`,
      );
    }
    if (writing.length > 0) {
      tests = tests.filter((t) => !writes(t));
      warnings.push({
        code: 'writes-skipped',
        message: `read-only mode: the write tests of the preset were skipped (${writing.join(', ')})`,
      });
    }
    if (tests.length === 0)
      throw new BenchError('read-only-mode', 'read-only mode: the preset has no read tests to run; pick one that has');
  }
  // DiskDelta's own throwaway loop/dm-crypt devices hold only its test file: they may be written.
  if (isDevice && !spec.readOnly && !(await isOwnThrowawayDevice(spec.target))) {
    const writing = tests.filter(writes);
    if (writing.length > 0 && spec.tests) {
      throw new BenchError(
        'write-on-block-device',
        `refusing write tests on the block device ${spec.target} (${writing.join(', ')}): DiskDelta opens devices read-only, always. Test a folder on that disk for writes`,
      );
    }
    if (writing.length > 0) {
      tests = tests.filter((t) => !writes(t));
      warnings.push({
        code: 'writes-skipped',
        message: `${spec.target} is a block device: the write tests of the preset were skipped (devices are only read)`,
      });
    }
    if (tests.length === 0)
      throw new BenchError('write-on-block-device', `the preset has no read tests to run on the block device ${spec.target}`);
  }
  // Consecutive tests of one kind share a step (one worker invocation for the whole grid),
  // unless the kind runs each test on its own (the workloads: a verb each).
  const steps: PlannedStep[] = [];
  for (const test of tests) {
    const kind = kindOf(test);
    const last = steps.at(-1);
    if (last?.kind === kind && !kind.stepPerTest) last.tests.push(test);
    else steps.push({ kind, tests: [test], plan: null });
  }
  for (const step of steps) {
    const checked = step.kind.planSchema.safeParse(step.kind.plan(spec, preset, step.tests));
    if (!checked.success) throw invalid(step.kind.id, checked.error);
    step.plan = checked.data;
  }
  return { spec, warnings, steps };
}

/** Progress of one step, as a share of the whole run (steps weighted by their test count). */
function stepEmitter(emit: (e: BenchEvent) => void, before: number, count: number, total: number): (e: BenchEvent) => void {
  if (before === 0 && count === total) return emit;
  return (e) => {
    if (e.type !== 'progress') return emit(e);
    emit({ ...e, testIndex: before + e.testIndex, testCount: total, fraction: (before + e.fraction * count) / total });
  };
}

export async function runBenchmark(input: BenchSpec, options: RunOptions = {}): Promise<RunRecord> {
  const { steps, warnings, spec } = await planRun(input);
  // The target first, the same way for every kind, before any kind's own checks (target-check.ts).
  await checkTarget(spec.target, { device: true, readOnly: steps.every((s) => s.kind.readsOnly) });
  const workerPath = options.workerPath ?? locateWorker();
  const emit = options.onEvent ?? (() => {});
  // A device this user cannot read: every worker step measures on a descriptor the helper
  // opened (or the app's session holder serves), never as root.
  let helper: string | undefined;
  if (!options.fdFrom && (await needsElevation(spec.target))) {
    if (!spec.elevate) {
      throw new BenchError(
        'needs-elevation',
        `reading the block device ${spec.target} needs administrator rights: DiskDelta can ask for them once through polkit (only opening the device is privileged; the measuring stays yours), or run as root`,
      );
    }
    const choice = await locateHelper(options.helper);
    helper = choice.path;
    warnings.push(...choice.warnings);
  }
  const access = deviceAccessArgs({ helper, fdFrom: options.fdFrom });
  const cacheHelper = await cacheDropHelper(
    { appStart: steps.some((s) => s.tests.includes('app-start')), elevate: spec.elevate === true },
    warnings,
    options.helper,
  );
  for (const w of warnings) emit({ type: 'warning', ...w });
  const startedAt = new Date();
  const context = await describeTarget(spec.target);
  warnings.push(...context.warnings);
  // Another DiskDelta process measuring this disk would make both runs wrong: wait for it. A
  // run that times nothing (a working-set scan, a recording: kind.measuresDisk) neither waits
  // nor makes a benchmark wait; its reading a tree's metadata is noise a benchmark's own
  // trust flags see like any other process's.
  const lock = steps.some((s) => s.kind.measuresDisk)
    ? await acquireDiskLock(await diskKey(spec.target, context.target.device?.name), spec.target, {
        wait: true,
        signal: options.signal,
        onWait: (message) => emit({ type: 'warning', code: 'disk-busy', message }),
      })
    : null;
  try {
    return await measure(spec, steps, warnings, context, startedAt, workerPath, access, emit, { ...options, cacheHelper });
  } finally {
    await lock?.release();
  }
}

/** The name of the disk lock a measuring run of `target` takes (disk-lock.ts): for tests and tools. */
export async function diskLockKey(target: string): Promise<string> {
  return diskKey(target, (await describeTarget(target)).target.device?.name);
}

/**
 * The whole disk under a target: the storage stack's disk; for a block device with no disk
 * beneath it (a loop over a file in RAM), the device's own kernel name, so the lock says which
 * device it is; else the device number.
 */
async function diskKey(target: string, disk: string | null | undefined): Promise<string> {
  if (disk) return disk;
  const info = await stat(target);
  if (!info.isBlockDevice()) return `dev:${info.dev}`;
  return (await nameFromDevNumber('/', devNumberOf(info.rdev))) ?? `dev:${info.rdev}`;
}

async function measure(
  spec: BenchSpec,
  steps: Awaited<ReturnType<typeof planRun>>['steps'],
  warnings: Warning[],
  context: Awaited<ReturnType<typeof describeTarget>>,
  startedAt: Date,
  workerPath: string,
  /** Worker arguments that hand it the device (the helper, or the session's descriptor). */
  access: string[],
  emit: (event: BenchEvent) => void,
  options: RunOptions & { cacheHelper: string | undefined },
): Promise<RunRecord> {
  const total = steps.reduce((n, s) => n + s.tests.length, 0);
  const results: TestResult[] = [];
  const settings: RunSettings = { preset: spec.preset ?? (spec.tests ? undefined : 'standard') };
  let hello: WorkerHello | null = null;
  let before = 0;
  // Before the first test makes its test file: the level the user's disk was at, not ours.
  const fill = await readFillLevel(spec.target, context.target.kind);
  // The drive's own counters and the host's, before and after: what the run cost the drive.
  const disk = context.target.device?.name ?? null;
  const healthOptions = { deviceClass: context.target.device?.class ?? null, elevate: spec.elevate === true, signal: options.signal };
  const healthBefore = await readDriveHealth(disk, healthOptions);
  const hostBefore = await hostBytesWritten(disk);
  // The drive's temperature, each reading tagged with the test the progress says is running.
  // The run's stop reaches the watch: a sensor that does not answer never holds a cancel.
  const thermal = await watchTemperature(context.target.device?.name, { ...options.temperature, signal: options.signal });
  if (options.signal?.aborted) {
    await thermal.stop();
    throw new BenchError('interrupted', 'the run was cancelled before it measured anything');
  }
  const tagging = (e: BenchEvent) => {
    if (e.type === 'progress') thermal.setTest(e.test);
    emit(e);
  };
  let temperature: DriveTemperature;
  try {
    for (const planned of steps) {
      const stepContext: StepContext = {
        target: context.target,
        system: context.system,
        emit: stepEmitter(tagging, before, planned.tests.length, total),
        reuseFile: options.reuseFile,
        cacheHelper: options.cacheHelper,
        surface: options.surface,
      };
      const step = planned.kind.start(planned.plan, stepContext);
      const cpuWatch = watchOtherCpu();
      const seen: { hello: WorkerHello | null } = { hello: null };
      let stepHello: WorkerHello | null = null;
      try {
        stepHello = step.argv
          ? await runWorkerStep(step, [...step.argv, ...access], {
              workerPath,
              signal: options.signal,
              target: spec.target,
              warnings,
              emit: tagging,
              seen,
            })
          : null;
        if (!step.argv) await step.run?.(options.signal);
      } catch (error) {
        cpuWatch.stop();
        if (!(error instanceof BenchError && error.code === 'interrupted')) throw error;
        // Stopped: keep what had finished only when asked; else say what a stop could keep.
        const finished = [...results, ...(step.finishedResults?.(seen.hello) ?? [])];
        if (!options.keepFinished || finished.length === 0) {
          if (finished.length === 0) throw error;
          const how = options.surface === 'cli' ? '--keep-finished keeps them' : 'keeping finished tests keeps them';
          throw new BenchError(
            'interrupted',
            `${error.message}; the ${counted(finished.length, 'test')} it had finished (${finished.map((r) => r.test).join(', ')}) were not kept (${how}, marked as cut short)`,
          );
        }
        hello ??= seen.hello;
        const cut: Warning = {
          code: CUT_SHORT,
          message: `cut short: stopped during ${planned.tests.join(', ')}; kept the ${counted(finished.length, 'test')} that had finished (${finished.map((r) => r.test).join(', ')}), the rest did not run or were cut`,
        };
        results.splice(0, results.length, ...finished);
        warnings.push(cut);
        emit({ type: 'warning', ...cut });
        break;
      }
      // Only figures that are timed can be lowered by a busy CPU: a scan's byte counts cannot (#39).
      const busy = planned.kind.measuresDisk ? machineBusyWarning(cpuWatch.stop(), planned.tests.join(', ')) : (cpuWatch.stop(), null);
      if (busy) {
        warnings.push(busy);
        emit({ type: 'warning', ...busy });
      }
      hello ??= stepHello;
      results.push(...step.results(stepHello));
      Object.assign(settings, step.settings(stepHello));
      before += planned.tests.length;
      if (options.signal?.aborted) {
        // Only a step that keeps its measurement gets here stopped (runWorkerStep): the run ends with it.
        const stopped: Warning = {
          code: 'stopped',
          message: `stopped during ${planned.tests.join(', ')}: what it measured is kept${before < total ? `; ${counted(total - before, 'later test')} did not run` : ''}`,
        };
        warnings.push(stopped);
        emit({ type: 'warning', ...stopped });
        break;
      }
    }
  } finally {
    temperature = await thermal.stop();
  }
  const drive: DriveCounters = {
    before: healthBefore,
    after: healthBefore.protocol === null ? null : await readDriveHealth(disk, healthOptions),
    hostBytesWritten: null,
  };
  const hostAfter = await hostBytesWritten(disk);
  if (hostBefore !== null && hostAfter !== null && hostAfter >= hostBefore) drive.hostBytesWritten = hostAfter - hostBefore;
  for (const w of driveWarnings(drive)) {
    warnings.push(w);
    emit({ type: 'warning', ...w });
  }
  for (const w of thermal.warnings()) {
    warnings.push(w);
    emit({ type: 'warning', ...w });
  }
  const thermalFlags = thermalWarnings(results, temperature);
  for (const r of results) {
    const flag = thermalFlags.byTest.get(r.test);
    if (flag) r.warnings.push(flag);
  }
  for (const w of thermalFlags.run) {
    warnings.push(w);
    emit({ type: 'warning', ...w });
  }

  return {
    label: spec.label ?? '',
    notes: '',
    createdAt: startedAt.toISOString(),
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: { finishedAt: new Date().toISOString() },
    target: { ...context.target, path: spec.target, kind: hello?.kind ?? context.target.kind },
    system: context.system,
    settings,
    engine: { name: ENGINE_NAME, version: hello?.version ?? 'unknown', ioEngine: hello?.engine },
    results,
    extras: [],
    warnings,
    temperature,
    fill,
    drive,
  };
}

/** Bytes the kernel has written to the whole disk since boot (/proc/diskstats), or null. */
async function hostBytesWritten(disk: string | null): Promise<number | null> {
  if (disk === null) return null;
  const counters = await readWriteCounters();
  if ('reason' in counters) return null;
  return counters.disks.find((d) => d.name === disk)?.bytesWritten ?? null;
}

interface WorkerStepOptions {
  workerPath: string;
  signal: AbortSignal | undefined;
  target: string;
  warnings: Warning[];
  emit: (e: BenchEvent) => void;
  /** The worker's hello as soon as it comes, for a step that is stopped before it returns. */
  seen?: { hello: WorkerHello | null };
}

/** Runs one worker step to its end: the protocol's common messages here, the kind's in step.read. */
async function runWorkerStep(step: KindStep, argv: string[], o: WorkerStepOptions): Promise<WorkerHello | null> {
  let hello: WorkerHello | null = null;
  let failure: { code: string; message: string } | undefined;
  const exit = await runWorker(argv, {
    workerPath: o.workerPath,
    signal: o.signal,
    onMessage: (m) => {
      if (m.type === 'hello') {
        hello = m;
        if (o.seen) o.seen.hello = m;
      } else if (m.type === 'warning') {
        o.warnings.push({ code: m.code, message: m.message });
        o.emit({ type: 'warning', code: m.code, message: m.message });
      } else if (m.type === 'error') failure ??= { code: m.code, message: m.message };
      else if (m.type !== 'done') step.read(m);
    },
    onInvalid: (problem) => o.warnings.push({ code: 'protocol', message: `the worker printed ${problem}` }),
  });
  if (exit.code !== 0) {
    // A worker killed outright (SIGKILL, OOM) could not remove its test file: do it now.
    if (exit.signal === 'SIGKILL' || exit.code === null) await runCleanup(o.workerPath, o.target);
    // The worker ended on the stop and reported the measurement it cut (its file removed).
    if (o.signal?.aborted && step.keepsWhenStopped && exit.code === exitCodeOf('interrupted')) return hello;
    if (o.signal?.aborted) throw new BenchError('interrupted', 'the run was cancelled; its test file was removed');
    // The reason is often only on stderr (tar's, the kernel's, a sanitizer's): its tail goes along.
    if (failure) throw BenchError.fromWorker(failure.code, withStderr(failure.message, exit.stderr), exit.code);
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    throw BenchError.fromWorker(
      undefined,
      withStderr(`the measuring worker ${how} before finishing; its test file has been removed`, exit.stderr),
      exit.code,
    );
  }
  return hello;
}
