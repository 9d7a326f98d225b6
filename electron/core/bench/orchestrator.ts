// A benchmark run from spec to RunRecord: plan → argv → spawn → parse NDJSON → aggregate.
// Used unchanged by the CLI, the app's API and the tests.
import { stat } from 'node:fs/promises';
import type { RunRecord, Sample, TestId, TestResult, Warning } from '../model/results.ts';
import { describeTarget, resultWarnings } from '../system/index.ts';
import { aggregateTest } from './aggregate.ts';
import { BenchError, WORKER_EXIT } from './errors.ts';
import { PRESETS, isWriteTest } from './presets.ts';
import { benchSpecSchema, type BenchEvent, type BenchSpec } from './spec.ts';
import { runWorker, locateWorker } from './worker-client.ts';
import { workerArgv, type WorkerPlan } from './worker-argv.ts';
import type { WorkerMessage, WorkerResult } from './worker-protocol.ts';
import { runCleanup } from './cleanup.ts';
import { ProgressTracker } from './progress.ts';
import { isOwnThrowawayDevice } from '../crypto/throwaway.ts';

export interface RunOptions {
  onEvent?: (event: BenchEvent) => void;
  signal?: AbortSignal;
  workerPath?: string;
  /** Harness only (bench:vs-fio): reuse a file made by `diskdelta-worker prepare`. */
  reuseFile?: string;
}

export const ENGINE_NAME = 'diskdelta';

/** Resolves the spec against its preset: what will actually run, with every default filled. */
export async function planRun(input: BenchSpec): Promise<{ plan: WorkerPlan; warnings: Warning[]; spec: BenchSpec }> {
  const parsed = benchSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new BenchError('bad-spec', `invalid benchmark request: ${issue?.path.join('.') || 'spec'}: ${issue?.message}`);
  }
  const spec = parsed.data;
  const preset = PRESETS[spec.preset ?? 'standard'];
  let tests: TestId[] = spec.tests ?? preset.tests;
  const warnings: Warning[] = [];
  const isDevice = await stat(spec.target).then((s) => s.isBlockDevice(), () => false);
  // DiskDelta's own throwaway loop/dm-crypt devices hold only its test file: they may be written.
  if (isDevice && !(await isOwnThrowawayDevice(spec.target))) {
    const writes = tests.filter(isWriteTest);
    if (writes.length > 0 && spec.tests) {
      throw new BenchError(
        'write-on-block-device',
        `refusing write tests on the block device ${spec.target} (${writes.join(', ')}): DiskDelta opens devices read-only, always. Test a folder on that disk for writes`,
      );
    }
    if (writes.length > 0) {
      tests = tests.filter((t) => !isWriteTest(t));
      warnings.push({ code: 'writes-skipped', message: `${spec.target} is a block device: the write tests of the preset were skipped (devices are only read)` });
    }
    if (tests.length === 0) throw new BenchError('write-on-block-device', `the preset has no read tests to run on the block device ${spec.target}`);
  }
  return {
    spec,
    warnings,
    plan: {
      target: spec.target,
      tests,
      sizeBytes: spec.sizeBytes ?? preset.sizeBytes,
      durationSec: spec.durationSec ?? preset.durationSec,
      warmupSec: spec.warmupSec ?? preset.warmupSec,
      runs: spec.runs ?? preset.runs,
      buffered: spec.buffered ?? false,
      sampleMs: 100,
    },
  };
}

export async function runBenchmark(input: BenchSpec, options: RunOptions = {}): Promise<RunRecord> {
  const { plan, warnings, spec } = await planRun(input);
  if (options.reuseFile) plan.reuseFile = options.reuseFile;
  const workerPath = options.workerPath ?? locateWorker();
  const emit = options.onEvent ?? (() => {});
  for (const w of warnings) emit({ type: 'warning', ...w });
  const startedAt = new Date();
  const context = await describeTarget(spec.target);
  warnings.push(...context.warnings);

  const results = new Map<TestId, WorkerResult[]>();
  const samples = new Map<TestId, Map<number, Sample[]>>();
  let hello: Extract<WorkerMessage, { type: 'hello' }> | undefined;
  let failure: { code: string; message: string } | undefined;
  const progress = new ProgressTracker(plan, emit);

  const onMessage = (m: WorkerMessage) => {
    switch (m.type) {
      case 'hello':
        hello = m;
        break;
      case 'progress':
        progress.update(m);
        break;
      case 'sample': {
        const test = plan.tests[m.job];
        if (!test) break;
        const sample: Sample = { tMs: m.t_ms, bytesPerSec: m.bytes_per_sec, iops: m.iops };
        const perRun = samples.get(test) ?? new Map<number, Sample[]>();
        samples.set(test, perRun);
        perRun.set(m.run, [...(perRun.get(m.run) ?? []), sample]);
        emit({ type: 'sample', test, run: m.run, ...sample });
        break;
      }
      case 'result': {
        const test = plan.tests[m.job];
        if (test) results.set(test, [...(results.get(test) ?? []), m]);
        break;
      }
      case 'warning':
        warnings.push({ code: m.code, message: m.message });
        emit({ type: 'warning', code: m.code, message: m.message });
        break;
      case 'error':
        failure ??= { code: m.code, message: m.message };
        break;
      default:
        break;
    }
  };

  const exit = await runWorker(workerArgv(plan), {
    workerPath,
    signal: options.signal,
    onMessage,
    onInvalid: (problem) => warnings.push({ code: 'protocol', message: `the worker printed ${problem}` }),
  });

  if (exit.code !== WORKER_EXIT.ok) {
    // A worker killed outright (SIGKILL, OOM) could not remove its test file: do it now.
    if (exit.signal === 'SIGKILL' || exit.code === null) await runCleanup(workerPath, spec.target);
    if (options.signal?.aborted) throw new BenchError('CANCELLED', 'the run was cancelled; its test file was removed');
    if (failure) throw new BenchError(failure.code, failure.message, exit.code);
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    throw new BenchError(
      'worker-failed',
      `the measuring worker ${how} before finishing; its test file has been removed. ${exit.stderr.trim().split('\n').pop() ?? ''}`.trim(),
      exit.code,
    );
  }
  progress.finish();

  const testResults: TestResult[] = plan.tests
    .filter((t) => results.has(t))
    .map((t) => {
      const result = aggregateTest(t, results.get(t)!, samples.get(t) ?? new Map());
      result.warnings.push(
        ...resultWarnings({
          bytesPerSec: result.bytesPerSec,
          device: context.target.device,
          stack: context.target.stack,
          sizeBytes: hello?.size ?? plan.sizeBytes,
          memoryBytes: context.system.memoryBytes,
          write: isWriteTest(t),
          buffered: plan.buffered,
        }),
      );
      return result;
    });

  return {
    label: spec.label ?? '',
    notes: '',
    createdAt: startedAt.toISOString(),
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: { finishedAt: new Date().toISOString() },
    target: { ...context.target, path: spec.target, kind: hello?.kind ?? context.target.kind },
    system: context.system,
    settings: {
      preset: spec.preset ?? (spec.tests ? undefined : 'standard'),
      sizeBytes: hello?.size ?? plan.sizeBytes,
      durationSec: plan.durationSec,
      warmupSec: plan.warmupSec,
      runs: plan.runs,
      buffered: plan.buffered,
    },
    engine: { name: ENGINE_NAME, version: hello?.version ?? 'unknown', ioEngine: hello?.engine },
    results: testResults,
    extras: [],
    warnings,
  };
}
