// What a measurement kind is: one entry of the kinds table (kinds/index.ts), the way fio's
// ioengine_ops is one entry of its engines. The orchestrator knows nothing of any kind's
// messages or figures, and of its tests only `app-start` (its page-cache helper is found before
// the first step): it groups the requested tests by kind, asks each kind for a plan and a
// step, runs the step (the worker, or in-process) and collects TestResults.
import type { z } from 'zod';
import type { RunSettings, TargetInfo, TestResult } from '../../../shared/model/results.ts';
import type { SystemFacts } from '../../../shared/model/machine.ts';
import type { FailureSurface } from '../../../shared/model/failures.ts';
import type { Preset } from '../../../shared/catalog/presets.ts';
import type { BenchEvent, BenchSpec } from '../../../shared/model/spec.ts';
import type { WorkerMessage } from '../worker-protocol.ts';

export type WorkerHello = Extract<WorkerMessage, { type: 'hello' }>;

/** What a step knows of the run around it. */
export interface StepContext {
  target: TargetInfo;
  system: SystemFacts;
  /** Progress, samples and warnings of this step's tests; progress fractions are the step's own (0..1). */
  emit: (event: BenchEvent) => void;
  /** Harness only (bench:vs-fio): reuse a file made by `diskdelta-worker prepare`. */
  reuseFile?: string;
  /** app-start as a user who is not root: the helper that drops the page cache (elevation.ts). */
  cacheHelper?: string;
  /** Where the run's messages are shown: a warning may name a CLI flag only on 'cli' (default 'app'). */
  surface?: FailureSurface;
}

/** One measuring step of a run: a worker invocation or an in-process task. */
export interface KindStep {
  /** The worker's argv (built from enums and numbers only), or null for an in-process step. */
  argv: string[] | null;
  /** In-process steps: does the measuring; rejects with a BenchError on failure. */
  run?: (signal: AbortSignal | undefined) => Promise<void>;
  /**
   * Reads one worker message. hello, warning, error and done are the orchestrator's (it
   * records the engine, the warnings and the failure); everything else comes here.
   */
  read(message: WorkerMessage): void;
  /** The step's results, once it finished; hello is the worker's (null for in-process steps). */
  results(hello: WorkerHello | null): TestResult[];
  /**
   * A step stopped part-way: the results of the tests it had finished (every run of each), never
   * the one it was stopped in. Absent: a stopped step keeps nothing of its own.
   */
  finishedResults?(hello: WorkerHello | null): TestResult[];
  /**
   * A stop (the run's signal) ends the step with what it measured, not with an error: its
   * worker reports a cut measurement (the sustained write), and the run ends after this step.
   */
  keepsWhenStopped?: boolean;
  /** What the step measured with, for RunRecord.settings. */
  settings(hello: WorkerHello | null): RunSettings;
}

export interface MeasurementKind<Plan = unknown> {
  /** The catalog's TestDef.kind of the tests it runs. */
  id: string;
  title: string;
  /**
   * One step (one worker invocation) per test rather than one for a run of consecutive tests:
   * the workloads, each its own worker verb.
   */
  stepPerTest?: boolean;
  /** The kind's resolved parameters: validated before anything starts. */
  planSchema: z.ZodType<Plan>;
  /** This kind's plan from the caller's spec, its preset's defaults and the tests asked for. */
  plan(spec: BenchSpec, preset: Preset, tests: string[]): Plan;
  /** Creates nothing in the target (the working-set scan): a read-only filesystem is no obstacle. */
  readsOnly?: boolean;
  /**
   * Times the disk (rates, workloads, the sustained write): such a run takes the machine-wide
   * disk lock (disk-lock.ts), since two at once measure each other. A kind that times nothing
   * (the working-set scan reads only metadata; the recorder watches for days) says false and
   * never waits behind a benchmark nor holds one up. Said by every kind, so a new one decides.
   */
  measuresDisk: boolean;
  /** Tests that cannot run on a block device (opened read-only, always). */
  writes(test: string): boolean;
  start(plan: Plan, context: StepContext): KindStep;
}
