// A TestResult built from figures alone: an imported figure, a kind whose result is figures only
// (the workloads' seconds per phase), a spec sheet's figure the forecast runs through the
// encryption model. Pure: the importers (node/formats/common.ts re-exports these), the forecast
// and the tests' fixtures build results through here, never by spelling every field again.
import type { Figure, LatencyNs, RunMeasurement, RunRecord, Statistic, TestParams, TestResult, Warning } from './results.ts';

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

/**
 * A measured run with nothing in it but what `overrides` gives: the tests' fixtures start from
 * this rather than spelling every field of a RunRecord again (a folder on /mnt/x, no results).
 */
export function measuredRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    label: '',
    notes: '',
    createdAt: '2026-12-01T10:00:00.000Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: { path: '/mnt/x', kind: 'folder' },
    settings: {},
    engine: { name: 'diskdelta', version: '0' },
    results: [],
    extras: [],
    warnings: [],
    ...overrides,
  };
}

/** One timed round of 4 KiB I/Os at `bytesPerSec` for `sec` seconds: a fixture's run of a result. */
export function roundMeasurement(run: number, bytesPerSec: number, sec: number): RunMeasurement {
  const latency = 1e5;
  return {
    run,
    bytesPerSec,
    iops: bytesPerSec / 4096,
    latencyNs: { mean: latency, p50: latency, p90: latency, p99: latency, p999: latency, max: latency },
    elapsedNs: sec * 1e9,
    ios: Math.round((bytesPerSec * sec) / 4096),
    bytes: bytesPerSec * sec,
    cpu: { userNs: 1e8, systemNs: 1e8 },
    samples: [],
  };
}
