// A TestResult built from figures alone: an imported figure, a kind whose result is figures only
// (the workloads' seconds per phase), a spec sheet's figure the forecast runs through the
// encryption model. Pure: the importers (node/formats/common.ts re-exports these), the forecast
// and the tests' fixtures build results through here, never by spelling every field again.
import type { Figure, LatencyNs, Statistic, TestParams, TestResult, Warning } from './results.ts';

export function emptyLatency(): LatencyNs {
  return { mean: null, p50: null, p90: null, p99: null, p999: null, max: null };
}

export function hasLatency(l: LatencyNs): boolean {
  return Object.values(l).some((v) => v !== null);
}

/**
 * A TestResult with no per-run detail, no spread and no samples: an imported figure, or a kind
 * whose result is figures only (the workloads' seconds per phase).
 */
export function resultWithoutRuns(fields: {
  test: string;
  params: TestParams | null;
  bytesPerSec: number | null;
  iops: number | null;
  latencyNs?: LatencyNs | null;
  histogram?: Array<[number, number]>;
  cpu?: TestResult['cpu'];
  underResolved?: boolean;
  /** How the source combined its runs into this figure (results.ts Statistic). */
  statistic?: Statistic;
  warnings?: Warning[];
  figures?: Figure[];
}): TestResult {
  const latency = fields.latencyNs && hasLatency(fields.latencyNs) ? fields.latencyNs : null;
  return {
    test: fields.test,
    params: fields.params,
    bytesPerSec: fields.bytesPerSec,
    iops: fields.iops,
    latencyNs: latency,
    best: null,
    cv: null,
    runs: [],
    histogram: fields.histogram ?? [],
    cpu: fields.cpu ?? null,
    underResolved: fields.underResolved ?? false,
    ...(fields.statistic ? { statistic: fields.statistic } : {}),
    warnings: fields.warnings ?? [],
    ...(fields.figures ? { figures: fields.figures } : {}),
  };
}
