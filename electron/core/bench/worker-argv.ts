// Spec → the worker's argv, from enums and numbers only: no caller text reaches a flag
// except the target path, which is passed as one argv element (never through a shell).
import type { TestId } from '../model/results.ts';
import { TEST_DEFINITIONS } from './presets.ts';

export interface WorkerPlan {
  target: string;
  tests: TestId[];
  sizeBytes: number;
  durationSec: number;
  warmupSec: number;
  runs: number;
  buffered: boolean;
  sampleMs: number;
  /** Harness only: reuse a file made by `diskdelta-worker prepare`. */
  reuseFile?: string;
  /** A block device opened by `pkexec HELPER open-ro` (elevation.ts), not by the worker. */
  helper?: string;
  /** A block device whose descriptor a `hold` process serves on this socket (elevation-session.ts). */
  fdFrom?: string;
}

export function jobSpec(id: TestId): string {
  const p = TEST_DEFINITIONS[id].params;
  const parts = [`name=${id}`, `rw=${p.rw}`, `bs=${p.blockSize}`, `qd=${p.queueDepth}`, `threads=${p.threads}`];
  if (p.readPercent !== undefined) parts.push(`read=${p.readPercent}`);
  return parts.join(',');
}

export function workerArgv(plan: WorkerPlan): string[] {
  const argv = [
    'run',
    '--target', plan.target,
    '--size', String(Math.floor(plan.sizeBytes)),
    '--duration', String(plan.durationSec),
    '--warmup', String(plan.warmupSec),
    '--runs', String(plan.runs),
    '--sample-ms', String(plan.sampleMs),
  ];
  if (plan.buffered) argv.push('--buffered');
  if (plan.reuseFile) argv.push('--file', plan.reuseFile);
  if (plan.helper) argv.push('--helper', plan.helper);
  if (plan.fdFrom) argv.push('--fd-from', plan.fdFrom);
  for (const id of plan.tests) argv.push('--job', jobSpec(id));
  return argv;
}
