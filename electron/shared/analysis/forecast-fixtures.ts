// Written runs for the forecast's tests (candidate*.test.ts, workload-forecast.test.ts, the CLI's
// forecast.test.ts). SYNTHETIC: labelled so, never shipped as data; their figures are chosen to
// make the expected forecasts computable by hand in each test.
import type { Figure, RunRecord, TestResult } from '../model/results.ts';
import { rateTestParams } from '../model/catalog.ts';
import { resultWithoutRuns } from '../model/result-builders.ts';
import { ACCESS_CURVE_TEST, accessCurveFigures, type TraceSummary } from './access-trace.ts';
import type { CurvePoint, LruCurve } from './lru-curve.ts';

const result = (test: string, bytesPerSec: number | null, figures?: Figure[]): TestResult =>
  resultWithoutRuns({ test, params: rateTestParams(test), bytesPerSec, iops: null, ...(figures ? { figures } : {}) });

const MB = 1e6;

/** An old laptop disk on a SATA 2 link (300 MB/s): 100 MB/s sequential, 4K at HDD speeds. */
export function currentDiskRun(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    label: 'SYNTHETIC current disk',
    notes: '',
    createdAt: '2026-12-01T10:00:00.000Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: {},
    target: {
      path: '/home',
      kind: 'folder',
      device: {
        name: 'sda',
        model: 'Old HDD',
        serial: 'OLD1',
        sizeBytes: 320e9,
        rotational: true,
        class: 'HDD',
        transport: 'sata',
        linkCeilingBytesPerSec: 300e6,
        linkDescription: 'SATA 3.0 Gb/s',
      },
    },
    settings: {},
    engine: { name: 'diskdelta-worker', version: '0.1.0' },
    results: [
      result('seq1m-q8t1-read', 100 * MB),
      result('seq1m-q8t1-write', 80 * MB),
      result('rnd4k-q1t1-read', 0.4 * MB),
      result('rnd4k-q1t1-write', 0.8 * MB),
      result('rnd4k-q32t1-read', 1.2 * MB),
      result('rnd4k-q32t1-write', 1 * MB),
    ],
    extras: [],
    warnings: [],
    ...overrides,
  };
}

const phase = (subject: string, passes: number[], basis: string): Figure => ({
  metric: 'phaseSeconds',
  subject,
  value: [...passes].sort((a, b) => a - b)[Math.floor(passes.length / 2)]!,
  unit: 's',
  provenance: 'measured',
  basis,
  passes,
});

/**
 * Workloads measured on the current disk: a 800 MB big file written in 12 s (10 s of it streaming
 * at 80 MB/s, 2 s the rest) and deleted in 0.5 s; a tree of 400 MB written in 25 s.
 */
export function workloadRun(overrides: Partial<RunRecord> = {}): RunRecord {
  const base = currentDiskRun();
  return {
    ...base,
    label: 'SYNTHETIC workloads',
    createdAt: '2026-12-01T11:00:00.000Z',
    results: [
      result('bigfile', null, [
        phase('write', [11.5, 12, 12.5], 'median of 3 runs, syncfs included; one file of 800 MB'),
        phase('delete', [0.5, 0.5, 0.5], 'median of 3 runs, syncfs included; one file of 800 MB'),
      ]),
      result('tree', null, [phase('write', [25, 25, 25], 'median of 3 runs, syncfs included; release tree: 10,000 files, 400 MB')]),
    ],
    ...overrides,
  };
}

const GB = 1e9;

export const RECORDING_POINTS: CurvePoint[] = [
  { cacheBytes: 8 * GB, hitRatio: 0.5, hitTouches: 100_000 },
  { cacheBytes: 16 * GB, hitRatio: 0.7, hitTouches: 150_000 },
  { cacheBytes: 32 * GB, hitRatio: 0.8, hitTouches: 180_000 },
];

/**
 * An access-curve run (diskdelta record): 100 GB read or written in 200,000 touches over 2 days,
 * 20 GB distinct, the curve told at 8, 16 and 32 GB; 24 GB of RAM unless told.
 */
export function recordingRun(
  opts: { seconds?: number; points?: CurvePoint[]; touches?: number; ram?: number | null; distinct?: number } = {},
): RunRecord {
  const touches = opts.touches ?? 200_000;
  const curve: LruCurve = {
    accesses: touches,
    accessedBytes: touches === 0 ? 0 : 100 * GB,
    distinctBytes: opts.distinct ?? 20 * GB,
    points: opts.points ?? RECORDING_POINTS,
  };
  const summary = { unsized: 0, recordedSeconds: opts.seconds ?? 2 * 86_400 } as TraceSummary;
  return {
    id: 7,
    label: 'SYNTHETIC file accesses on /home',
    notes: '',
    createdAt: '2026-12-01T08:00:00.000Z',
    source: 'measured',
    sourceFormat: 'diskdelta',
    sourceMeta: { finishedAt: '2026-12-03T08:00:00.000Z' },
    target: { path: '/home', kind: 'folder' },
    ...(opts.ram === null ? {} : { system: { kernel: null, cpuModel: null, cores: 2, cryptoFlags: [], memoryBytes: opts.ram ?? 24 * GB } }),
    settings: {},
    engine: { name: 'diskdelta', version: '0' },
    results: [
      resultWithoutRuns({
        test: ACCESS_CURVE_TEST,
        params: null,
        bytesPerSec: null,
        iops: null,
        figures: accessCurveFigures(summary, curve, 'SYNTHETIC'),
      }),
    ],
    extras: [],
    warnings: [],
  };
}
