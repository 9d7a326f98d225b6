// Written runs for the forecast's tests (candidate*.test.ts, workload-forecast.test.ts, the CLI's
// forecast.test.ts). SYNTHETIC: labelled so, never shipped as data; their figures are chosen to
// make the expected forecasts computable by hand in each test.
import type { Figure, RunRecord, TestResult } from '../model/results.ts';
import { rateTestParams } from '../model/catalog.ts';
import { resultWithoutRuns } from '../model/result-builders.ts';

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
