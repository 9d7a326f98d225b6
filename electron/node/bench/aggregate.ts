// Worker results of one test (one per run) → the TestResult the rest of DiskDelta uses,
// with the verdicts that say when a figure cannot be trusted.
import type { RunMeasurement, Sample, Statistic, TestResult, Warning } from '../../shared/model/results.ts';
import { rateParams } from './worker-argv.ts';
import { coefficientOfVariation, combineLatency, median, medianInterval, TRUST } from '../../shared/analysis/statistics.ts';
import type { WorkerResult } from './worker-protocol.ts';
import { formatCount } from '../../shared/analysis/units.ts';
import { NOISY } from '../../shared/analysis/figure-text.ts';

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** What the test was asked for: the interval to reach (0: a fixed count of runs). */
export interface AggregatePlan {
  precision: number;
  /** How the runs become the figure (the preset's; median when absent). */
  statistic?: Statistic;
}

/** The runs' values combined as the statistic says; the spread and interval stay the median's. */
export function combineRuns(values: number[], statistic: Statistic): number {
  if (statistic === 'best') return Math.max(...values);
  if (statistic === 'mean') return values.reduce((a, b) => a + b, 0) / values.length;
  if (statistic === 'single') return values[0]!;
  return median(values);
}

/**
 * The noisy warning of a figure's runs, or none: their CV past TRUST.maxCv, or (3 runs or more)
 * the median's interval past TRUST.maxCiRelative. `runs` says how they differ, `why` the likely
 * causes and what to do; the interval is said when there is one. One rule for every figure: the
 * aggregate's of all runs and a steady figure's of its window (kinds/rate.ts).
 */
export function noisyWarning(s: {
  cv: number | null;
  ciRelative: number | null;
  count: number;
  runs: string;
  why: string;
}): Warning | null {
  const wide = s.count >= 3 && s.ciRelative !== null && s.ciRelative > TRUST.maxCiRelative;
  if (!(s.cv !== null && s.cv > TRUST.maxCv) && !wide) return null;
  const interval = s.ciRelative === null ? '' : `, so the median is known within ±${pct(s.ciRelative)} (95 %)`;
  return { code: NOISY, message: `${s.runs}${interval}: ${s.why}` };
}

export function aggregateTest(test: string, results: WorkerResult[], samples: Map<number, Sample[]>, plan: AggregatePlan): TestResult {
  const runs: RunMeasurement[] = results.map((r) => ({
    run: r.run,
    bytesPerSec: r.bytes_per_sec,
    iops: r.iops,
    latencyNs: { mean: r.lat_ns.mean, p50: r.lat_ns.p50, p90: r.lat_ns.p90, p99: r.lat_ns.p99, p999: r.lat_ns.p999, max: r.lat_ns.max },
    elapsedNs: r.elapsed_ns,
    ios: r.ios,
    bytes: r.bytes,
    cpu: { userNs: r.cpu.user_ns, systemNs: r.cpu.sys_ns },
    samples: samples.get(r.run) ?? [],
  }));
  const { latencyNs, histogram } = combineLatency(results.map((r) => ({ latency: r.lat_ns, ios: r.ios, histogram: r.hist })));
  const throughput = runs.map((r) => r.bytesPerSec);
  const statistic = plan.statistic ?? 'median';
  const cv = coefficientOfVariation(throughput);
  const cpu = {
    userNs: runs.reduce((a, r) => a + r.cpu.userNs, 0),
    systemNs: runs.reduce((a, r) => a + r.cpu.systemNs, 0),
  };
  const warnings: Warning[] = [];
  const ciRelative = medianInterval(throughput);
  const resolution = resolve(runs, ciRelative);
  if (resolution) warnings.push({ code: 'under-resolved', message: resolution });
  const underResolved = resolution !== null;
  const noisy = noisyWarning({
    cv,
    ciRelative,
    count: runs.length,
    runs: `runs differ by ${pct(cv ?? 0)} (coefficient of variation, over ${runs.length} runs)`,
    why: 'something else is using the disk or the CPU; measure again on a quiet machine, or with more runs and more time per test',
  });
  if (noisy) warnings.push(noisy);
  const elapsedSec = runs.reduce((a, r) => a + r.elapsedNs, 0) / 1e9;
  const params = rateParams(test);
  const threads = params.threads;
  const cpuShare = elapsedSec > 0 ? (cpu.userNs + cpu.systemNs) / 1e9 / elapsedSec / threads : 0;
  if (cpuShare > TRUST.cpuBoundShare) {
    warnings.push({
      code: 'cpu-bound',
      message: `the worker kept its ${threads === 1 ? 'core' : `${threads} cores`} ${pct(cpuShare)} busy: this figure may be the CPU's limit, not the disk's`,
    });
  }
  if (results.some((r) => !r.direct)) {
    warnings.push({
      code: 'buffered-io',
      message: 'measured without O_DIRECT (--buffered): the page cache is in this figure, not only the disk',
    });
  }
  if (results.some((r) => r.engine === 'psync') && params.queueDepth > 1) {
    warnings.push({
      code: 'queue-depth-emulated',
      message: `neither io_uring nor kernel AIO was available: this Q${params.queueDepth} test ran at queue depth 1`,
    });
  }
  return {
    test,
    params,
    bytesPerSec: combineRuns(throughput, statistic),
    iops: combineRuns(
      runs.map((r) => r.iops),
      statistic,
    ),
    latencyNs,
    best: { bytesPerSec: Math.max(...throughput), iops: Math.max(...runs.map((r) => r.iops)) },
    cv,
    runs,
    histogram,
    cpu,
    underResolved,
    statistic,
    precision: {
      ciRelative,
      target: plan.precision,
      seconds: Math.max(0, ...results.map((r) => r.job_ns)) / 1e9,
      // A worker older than adaptive stopping does not say: it ran the count it was given.
      stoppedBy: results.at(-1)?.stop ?? 'runs',
    },
    warnings,
  };
}

/**
 * Why a figure cannot be trusted for lack of measurement, or null. With 3 or more runs the
 * median's interval is measured (a wide one is flagged as noisy), so what is asked is enough
 * I/Os and seconds over all runs: a slow disk's 1 MiB figure, a few dozen I/Os per run but
 * steady, is resolved. With fewer runs nothing is measured about precision, and each window
 * must be long and full enough on its own.
 */
function resolve(runs: RunMeasurement[], ciRelative: number | null): string | null {
  const totalIos = runs.reduce((a, r) => a + r.ios, 0);
  const totalSec = runs.reduce((a, r) => a + r.elapsedNs, 0) / 1e9;
  if (runs.length >= 3 && ciRelative !== null) {
    if (totalIos < TRUST.minTotalIos || totalSec < TRUST.minWindowSec) {
      return `too little was measured to trust this figure (${formatCount(totalIos)} I/Os in ${totalSec.toFixed(2)} s over ${runs.length} runs; want ≥ ${formatCount(TRUST.minTotalIos)} I/Os and ≥ ${TRUST.minWindowSec} s): give each test more time (most seconds per test)`;
    }
    return null;
  }
  const fewest = Math.min(...runs.map((r) => r.ios));
  const shortest = Math.min(...runs.map((r) => r.elapsedNs)) / 1e9;
  if (fewest >= TRUST.minIos && shortest >= TRUST.minWindowSec) return null;
  return `too little was measured to trust this figure (${formatCount(fewest)} I/Os in ${shortest.toFixed(2)} s; want ≥ ${formatCount(TRUST.minIos)} I/Os and ≥ ${TRUST.minWindowSec} s per run, or 3 runs or more): measure each run for longer (seconds per test), or with more runs`;
}
