// The rate kind: DiskDelta's I/O tests (the CrystalDiskMark grid, seeks, the mix). Each test
// becomes a `--job` of the worker's `run` verb; its result lines, one per timed run, are
// aggregated into a median with spread, latency percentiles and trust verdicts.
import { z } from 'zod';
import { rateTestParams, testWrites } from '../../../shared/model/catalog.ts';
import { formatBytes } from '../../../shared/analysis/units.ts';
import { BenchError } from '../errors.ts';
import { STATISTICS, type Sample, type TestResult } from '../../../shared/model/results.ts';
import { aggregateTest, noisyWarning } from '../aggregate.ts';
import { warningApplies } from '../../../shared/model/warning-scope.ts';
import { steadyCostText, steadyOf, steadyWindowOf, steadyWords } from '../../../shared/analysis/steady-state.ts';
import { coefficientOfVariation } from '../../../shared/analysis/statistics.ts';
import { NOISY } from '../../../shared/analysis/figure-text.ts';
import { ProgressTracker } from '../progress.ts';
import { resultWarnings } from '../result-warnings.ts';
import { runArgv, type WorkerPlan } from '../worker-argv.ts';
import { planSettingsShape, resolveSettings, settingsOfKind } from '../../../shared/model/run-settings.ts';
import type { WorkerResult } from '../worker-protocol.ts';
import type { MeasurementKind, WorkerHello } from './kind.ts';

const planSchema: z.ZodType<WorkerPlan> = z.strictObject({
  target: z.string().min(1),
  tests: z.array(z.string()).min(1),
  // Every run setting the rate kind takes, in the table's ranges (model/run-settings.ts).
  ...planSettingsShape('rate'),
  sampleMs: z.number().int().min(50).max(10_000),
  statistic: z.enum(STATISTICS),
  reuseFile: z.string().optional(),
  steady: z.boolean().optional(),
});

/**
 * A test over a span (span=256m) covers the first part of the test file or device, so the span
 * must fit in the size: refused before anything runs, rather than by the worker halfway through.
 */
function refuseSpansBeyondSize(tests: readonly string[], sizeBytes: number): void {
  for (const test of tests) {
    const span = rateTestParams(test)?.spanMiB;
    if (span !== undefined && span * 2 ** 20 > sizeBytes)
      throw new BenchError(
        'usage',
        `${test} covers ${formatBytes(span * 2 ** 20)}, more than the test size of ${formatBytes(sizeBytes)}: raise the size to at least the span, or lower span=`,
      );
  }
}

/**
 * A steady-state result: its figure becomes the steady window's mean (SNIA reports the window's
 * average), with the fresh first round and the rounds it took beside it; not steady after the
 * last round is a result too, said in a figure's basis and a warning, the last 5 rounds' mean kept.
 */
export function applySteadyState(result: TestResult): void {
  const verdict = steadyOf(result.runs.map((r) => r.bytesPerSec));
  const { start, end } = steadyWindowOf(verdict);
  const window = result.runs.slice(start - 1, end);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  result.bytesPerSec = mean(window.map((r) => r.bytesPerSec));
  result.iops = mean(window.map((r) => r.iops));
  result.statistic = 'mean';
  const words = steadyWords(verdict);
  const figure = (metric: string, value: number | null, unit: 'bytes/s' | 'count', basis: string) => ({
    metric,
    subject: '',
    value,
    unit,
    provenance: 'measured' as const,
    basis,
  });
  result.figures = [
    figure('steadyBytesPerSec', verdict.steady ? verdict.steadyValue : null, 'bytes/s', words),
    figure('freshBytesPerSec', verdict.freshValue, 'bytes/s', 'the first round, after the preconditioning'),
    figure('steadyRounds', verdict.steady ? verdict.rounds : null, 'count', words),
  ];
  if (!verdict.steady)
    result.warnings.push({ code: 'not-steady', message: `${words}: the figure is the last 5 rounds' mean, not a steady state` });
  // The figure is the window's mean, so its spread is the window's: the rounds before it differ on
  // purpose (a burst being spent), and judging all rounds called a settled 4.17 MB/s "±156 % (noisy)".
  // The aggregate's interval is the median's of all rounds: none is kept, the window's CV says it.
  const windowRates = window.map((r) => r.bytesPerSec);
  result.cv = coefficientOfVariation(windowRates);
  if (result.precision) result.precision.ciRelative = null;
  result.warnings = result.warnings.filter((w) => w.code !== NOISY);
  const noisy = noisyWarning({
    cv: result.cv,
    ciRelative: null,
    count: window.length,
    runs: `the ${window.length} rounds ${verdict.steady ? 'judged steady' : 'judged last'} differ by ${((result.cv ?? 0) * 100).toFixed(1)} % (coefficient of variation)`,
    why: 'something else is using the disk or the CPU, or the drive has not settled',
  });
  if (noisy) result.warnings.push(noisy);
}

export const rateKind: MeasurementKind<WorkerPlan> = {
  id: 'rate',
  title: 'I/O rate (throughput, IOPS, latency)',
  measuresDisk: true,
  planSchema,
  plan: (spec, preset, tests) => {
    // The spec's value, else the preset's, else the table's default, for every setting rate takes.
    const values = resolveSettings('rate', spec, { ...preset });
    refuseSpansBeyondSize(tests, values.sizeBytes);
    return {
      ...values,
      target: spec.target,
      tests,
      // An explicit --runs asks for that many (CrystalDiskMark's 5 × 5 s), unless a precision is asked too.
      // Steady state has its own stopping rule: no interval.
      precision: preset.steady ? 0 : (spec.precision ?? (spec.runs !== undefined ? 0 : preset.precision)),
      ...(preset.steady ? { steady: true } : {}),
      // Longer runs than the preset's (--duration 5) still get their fewest runs.
      maxTimeSec: spec.maxTimeSec ?? Math.max(preset.maxTimeSec, values.runs * values.durationSec),
      sampleMs: 100,
      statistic: preset.statistic,
    };
  },
  writes: (test) => testWrites(test),
  start(plan, context) {
    const worker = context.reuseFile ? { ...plan, reuseFile: context.reuseFile } : plan;
    const results = new Map<string, WorkerResult[]>();
    const samples = new Map<string, Map<number, Sample[]>>();
    const progress = new ProgressTracker(plan, context.emit);
    // What steady state writes, said before the worker starts (the sustained write's way).
    if (plan.steady) context.emit({ type: 'warning', code: 'steady-cost', message: steadyCostText(plan) });
    let finished = false;
    // The furthest test the worker has reached: the ones before it are finished (it runs them in order).
    let reached = -1;
    const reach = (job: number) => (reached = Math.max(reached, job));
    const aggregate = (hello: WorkerHello | null, tests: string[]): TestResult[] =>
      tests
        .filter((t) => results.has(t))
        .map((t) => {
          const result = aggregateTest(t, results.get(t)!, samples.get(t) ?? new Map<number, Sample[]>(), plan);
          if (plan.steady) applySteadyState(result);
          result.warnings.push(
            ...resultWarnings({
              bytesPerSec: result.bytesPerSec,
              device: context.target.device,
              stack: context.target.stack,
              sizeBytes: hello?.size ?? plan.sizeBytes,
              memoryBytes: context.system.memoryBytes,
              write: testWrites(t),
              writeOnly: !warningApplies('size-below-ram', 'disk', t),
              buffered: plan.buffered,
            }),
          );
          return result;
        });
    return {
      argv: runArgv(worker),
      read(m) {
        if (m.type === 'progress') {
          // Progress into the next test (its file prepared already) means the one before is done.
          if (m.phase !== 'prepare' && m.job !== undefined) reach(m.job);
          progress.update(m);
        } else if (m.type === 'sample') {
          reach(m.job);
          const test = plan.tests[m.job];
          if (!test) return;
          const sample: Sample = { tMs: m.t_ms, bytesPerSec: m.bytes_per_sec, iops: m.iops };
          const perRun = samples.get(test) ?? new Map<number, Sample[]>();
          samples.set(test, perRun);
          const series = perRun.get(m.run);
          // Appended in place: a long run sends thousands of samples (one per 100 ms).
          if (series) series.push(sample);
          else perRun.set(m.run, [sample]);
          context.emit({ type: 'sample', test, run: m.run, ...sample });
        } else if (m.type === 'result') {
          reach(m.job);
          const test = plan.tests[m.job];
          if (test) results.set(test, [...(results.get(test) ?? []), m]);
        }
      },
      results(hello): TestResult[] {
        if (!finished) progress.finish();
        finished = true;
        return aggregate(hello, plan.tests);
      },
      finishedResults: (hello) => aggregate(hello, plan.tests.slice(0, Math.max(0, reached))),
      // Every setting it ran with, in the table's order; the interval and time limit only when adaptive.
      settings: (hello) => ({
        ...Object.fromEntries(
          settingsOfKind('rate')
            .filter((d) => plan.precision > 0 || (d.key !== 'precision' && d.key !== 'maxTimeSec'))
            .map((d) => [d.key, plan[d.key]]),
        ),
        sizeBytes: hello?.size ?? plan.sizeBytes,
      }),
    };
  },
};
