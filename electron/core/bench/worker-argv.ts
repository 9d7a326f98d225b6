// Spec → the worker's argv, from enums and numbers only: no caller text reaches a flag
// except the target path, which is passed as one argv element (never through a shell).
import { testById } from '../model/catalog.ts';
import type { TestParams } from '../model/results.ts';
import { TRUST } from './statistics.ts';

export interface WorkerPlan {
  target: string;
  /** Catalog test ids of the rate kind. */
  tests: string[];
  sizeBytes: number;
  durationSec: number;
  warmupSec: number;
  /** The fewest timed runs; the exact count when precision is 0. */
  runs: number;
  /** Adaptive stopping: the median's 95 % interval to reach (0.02 = ±2 %); 0 for a fixed count of runs. */
  precision: number;
  /** Adaptive stopping: the most timed seconds per test. */
  maxTimeSec: number;
  buffered: boolean;
  sampleMs: number;
  /** Harness only: reuse a file made by `diskdelta-worker prepare`. */
  reuseFile?: string;
}

/** The worker job's parameters of a rate test of the catalog. */
export function rateParams(id: string): TestParams {
  const params = testById(id)?.params;
  if (!params) throw new Error(`${id} is not a rate test of the catalog`);
  return params;
}

export function jobSpec(id: string): string {
  const p = rateParams(id);
  const parts = [`name=${id}`, `rw=${p.rw}`, `bs=${p.blockSize}`, `qd=${p.queueDepth}`, `threads=${p.threads}`];
  if (p.readPercent !== undefined) parts.push(`read=${p.readPercent}`);
  return parts.join(',');
}

export function workerArgv(plan: WorkerPlan): string[] {
  const argv = [
    'run',
    '--target',
    plan.target,
    '--size',
    String(Math.floor(plan.sizeBytes)),
    '--duration',
    String(plan.durationSec),
    '--warmup',
    String(plan.warmupSec),
    '--runs',
    String(plan.runs),
    '--sample-ms',
    String(plan.sampleMs),
  ];
  if (plan.precision > 0) {
    // A test stops once precise and resolved (TRUST), or at its time limit.
    argv.push(
      '--precision',
      String(plan.precision),
      '--max-time',
      String(plan.maxTimeSec),
      '--min-ios',
      String(TRUST.minTotalIos),
      '--min-time',
      String(TRUST.minWindowSec),
      '--min-window-ios',
      String(TRUST.minWindowIos),
    );
  }
  if (plan.buffered) argv.push('--buffered');
  if (plan.reuseFile) argv.push('--file', plan.reuseFile);
  for (const id of plan.tests) argv.push('--job', jobSpec(id));
  return argv;
}
