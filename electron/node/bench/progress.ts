// Worker progress lines → whole-run progress (fraction and ETA) for the UI and the CLI.
// The plan says how long every test takes; filling the test file is the only unknown, and
// its own progress (bytes written) gives its ETA.
import type { BenchEvent } from '../../shared/model/spec.ts';
import type { WorkerMessage } from './worker-protocol.ts';
import type { WorkerPlan } from './worker-argv.ts';

type ProgressMessage = Extract<WorkerMessage, { type: 'progress' }>;

/**
 * Progress of a step that moves bytes (a fill, a sustained write, a surface scan): the share
 * done and the time left at the speed so far (null before the first byte).
 */
export function byteProgress(
  done: number,
  total: number,
  startedMs: number,
  nowMs = Date.now(),
): { fraction: number; etaSec: number | null; elapsedSec: number } {
  const elapsedSec = (nowMs - startedMs) / 1000;
  return {
    fraction: total > 0 ? Math.min(1, done / total) : 0,
    etaSec: done > 0 ? (elapsedSec * (total - done)) / done : null,
    elapsedSec,
  };
}

export class ProgressTracker {
  private readonly plan: WorkerPlan;
  private readonly emit: (event: BenchEvent) => void;
  private readonly perTestSec: number;
  private readonly startedMs = Date.now();
  private prepareSec = 0;

  constructor(plan: WorkerPlan, emit: (event: BenchEvent) => void) {
    this.plan = plan;
    this.emit = emit;
    // Adaptive tests stop between their fewest runs and their time limit: plan for the limit,
    // so the estimate only ever improves (each test that finishes early moves progress on).
    this.perTestSec =
      plan.warmupSec + (plan.precision > 0 ? Math.max(plan.maxTimeSec, plan.runs * plan.durationSec) : plan.runs * plan.durationSec);
  }

  update(m: ProgressMessage): void {
    const testCount = this.plan.tests.length;
    // The worker rests (--rest) before every test but the first.
    const restSec = this.plan.pauseSec;
    const testsSec = testCount * this.perTestSec + Math.max(0, testCount - 1) * restSec;
    if (m.phase === 'prepare') {
      const fill = byteProgress(m.done_bytes ?? 0, m.total_bytes ?? 1, this.startedMs);
      const elapsed = fill.elapsedSec;
      const fillLeft = fill.etaSec;
      this.prepareSec = elapsed;
      const fillFraction = fill.fraction;
      this.emit({
        type: 'progress',
        test: null,
        testIndex: 0,
        testCount,
        phase: 'prepare',
        run: 0,
        runs: this.plan.runs,
        fraction: fillLeft === null ? 0 : (elapsed / (elapsed + fillLeft + testsSec)) * fillFraction,
        etaSec: fillLeft === null ? null : fillLeft + testsSec,
      });
      return;
    }
    const index = m.job ?? 0;
    const run = m.run ?? 0;
    const into = m.phase === 'warmup' ? 0 : this.plan.warmupSec + (run - 1) * this.plan.durationSec;
    const inPhase = Math.min((m.elapsed_ns ?? 0) / 1e9, m.phase === 'warmup' ? this.plan.warmupSec : this.plan.durationSec);
    const doneSec = index * (this.perTestSec + restSec) + into + inPhase;
    this.emit({
      type: 'progress',
      test: this.plan.tests[index] ?? null,
      testIndex: index,
      testCount,
      phase: m.phase,
      run,
      runs: this.plan.runs,
      fraction: (this.prepareSec + doneSec) / (this.prepareSec + testsSec),
      etaSec: Math.max(0, testsSec - doneSec),
    });
  }

  finish(): void {
    const testCount = this.plan.tests.length;
    this.emit({
      type: 'progress',
      test: null,
      testIndex: testCount - 1,
      testCount,
      phase: 'cleanup',
      run: this.plan.runs,
      runs: this.plan.runs,
      fraction: 1,
      etaSec: 0,
    });
  }
}
