// The result model shared by the bench orchestrator, the results library, the importers,
// the comparison and the app. Raw units only: bytes per second, I/Os per second,
// nanoseconds. Conversion to MB/s, MiB/s or KB/s happens at display time (units.ts).

import type { DeviceFingerprint, StackLayer, SystemFacts } from './machine.ts';
import type { Provenance, RawUnit } from './figure-terms.ts';
import type { RunSettingValues } from './run-settings.ts';

/** A rate test's parameters and access patterns: one table, model/test-params.ts. */
export type { AccessPattern, TestParams } from './test-params.ts';
import type { TestParams } from './test-params.ts';

export interface Warning {
  /** Stable machine-readable code, e.g. "under-resolved", "noisy", "buffered-io". */
  code: string;
  /** One sentence a person can act on. */
  message: string;
}

/** Latency in nanoseconds. A field is null when the source did not report it (imports). */
export interface LatencyNs {
  mean: number | null;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  p999: number | null;
  max: number | null;
}

export interface Sample {
  /** Milliseconds since the start of the timed window. */
  tMs: number;
  bytesPerSec: number;
  iops: number;
}

export interface CpuTime {
  userNs: number;
  systemNs: number;
}

/** One timed window of one test. */
export interface RunMeasurement {
  run: number; // 1-based
  bytesPerSec: number;
  iops: number;
  latencyNs: LatencyNs;
  elapsedNs: number;
  ios: number;
  bytes: number;
  cpu: CpuTime;
  samples: Sample[];
}

/** A histogram as sparse [lowerBoundNs, count] pairs, ascending. */
export type LatencyHistogram = Array<[number, number]>;

/**
 * A figure that is not an I/O rate: the seconds of one phase of a workload, a cipher's
 * ceiling in bytes/s, a forecast. Its metric (catalog.ts METRICS) says the unit and which way
 * is better; `estimated` figures come from a model, not a measurement, and are shown as such.
 */
export interface Figure {
  /** A catalog metric id, e.g. "phaseSeconds", "cipherBytesPerSec", "forecastBytesPerSec". */
  metric: string;
  /** What the figure is of within its test: a phase ("unpack"), a cipher ("aes-xts-plain64"); "" when single. */
  subject: string;
  /** Raw, in `unit`; null: not obtained (say why in `basis`). */
  value: number | null;
  unit: RawUnit;
  provenance: Provenance;
  /** How it was obtained, for estimated figures above all ("cipher ceiling × measured write"). */
  basis?: string;
  /**
   * The repeated values the figure combines (a workload phase's timed passes, raw unit): its
   * spread, judged by the rates' trust rules (noisy) and by compare's one significance rule.
   */
  passes?: number[];
}

/**
 * How a result's figure combines its runs: DiskDelta's median (adaptive runs), the best run
 * (CrystalDiskMark keeps its highest of N; the `peak` preset), the mean (KDiskMark's fio loops,
 * fio's bandwidth over its window; the `real-world` preset), or one run alone (bonnie++).
 * A best-of-5 reads higher than a median of the same disk, so compare says when they differ.
 */
export const STATISTICS = ['median', 'best', 'mean', 'single'] as const;
export type Statistic = (typeof STATISTICS)[number];

export interface TestResult {
  /** A test id of the catalog (catalog.ts); imports use the nearest catalog test or their own name. */
  test: string;
  params: TestParams | null;
  /** The runs combined by `statistic` (measured) or the value in the file (imported). null: not reported. */
  bytesPerSec: number | null;
  iops: number | null;
  latencyNs: LatencyNs | null;
  best: { bytesPerSec: number | null; iops: number | null } | null;
  /** Coefficient of variation of bytesPerSec over runs (0.05 = 5 %); null with fewer than 2 runs. */
  cv: number | null;
  runs: RunMeasurement[];
  histogram: LatencyHistogram;
  /** Worker CPU time over all runs, to recognise a CPU-bound result. */
  cpu: CpuTime | null;
  /** True when the result is too short or has too few I/Os to be trusted (bonnie++'s +++++). */
  underResolved: boolean;
  /**
   * How bytesPerSec and iops combine the runs. Absent: not recorded (a result stored or
   * exported before it was, or a reference figure whose source does not say).
   */
  statistic?: Statistic;
  /** How precise the median is and why the runs stopped (DiskDelta's measured runs only). */
  precision?: ResultPrecision;
  warnings: Warning[];
  /**
   * The figures of kinds that are not rates (seconds per phase, cipher ceilings, forecasts).
   * Absent for rate tests; the library stores an empty list as absent.
   */
  figures?: Figure[];
}

/**
 * Warning code of a test that ran and failed (a fio job with a non-zero error, say). Such a
 * result keeps every figure null: a failure is never stored as 0 B/s or 0 IOPS, which would
 * read as a measurement of a dead disk.
 */
export const FAILED_TEST = 'test-failed';

export function isFailedResult(result: Pick<TestResult, 'warnings'>): boolean {
  return result.warnings.some((w) => w.code === FAILED_TEST);
}

export interface ResultPrecision {
  /** Half-width of the median's 95 % confidence interval, relative (0.02 = ±2 %); null below 2 runs. */
  ciRelative: number | null;
  /** The half-width asked for; 0 when the number of runs was fixed. */
  target: number;
  /** Seconds the test took, its warm-up included. */
  seconds: number;
  /** Why the runs stopped: the interval was reached, the test's time was up, or the fixed count was done. */
  stoppedBy: 'precision' | 'max-time' | 'runs';
}

/** A figure kept from an import that maps to none of DiskDelta's tests. */
export interface ExtraMetric {
  name: string; // the original tool's name for it
  value: number | null;
  unit: string; // the original unit, e.g. "K/sec", "/sec", "us", "% CPU"
  note?: string;
}

export type RunSource = 'measured' | 'imported' | 'reference';

export type SourceFormat = 'diskdelta' | 'bonnie++' | 'fio' | 'kdiskmark' | 'crystaldiskmark';

export interface TargetInfo {
  path: string;
  kind: 'folder' | 'block-device' | 'unknown';
  /** The disk under the target, from system/ (issue "Know the machine"). */
  device?: DeviceFingerprint;
  /** From the file down to the disk. */
  stack?: StackLayer[];
}

/**
 * What a run measured with: its preset and the run settings' values (model/run-settings.ts; a
 * setting added there is stored with no edit here). precision is absent or 0 when runs were fixed.
 */
export type RunSettings = { preset?: string } & Partial<RunSettingValues>;

/** One reading of a drive's temperature during a run. */
export interface TemperatureReading {
  /** Seconds since the run's first reading. */
  tSec: number;
  celsius: number;
  /** The test running when it was read; absent before the first and after the last. */
  test?: string;
}

/**
 * The drive's own temperature around a run (system/drive-temperature.ts): before the first
 * test, every few seconds while it measures, after the last. `sensor` null: the kernel exposes
 * none for this disk, and `reason` says why (a loop device, a SATA drive without drivetemp).
 */
export type DriveTemperature =
  | {
      disk: string;
      sensor: 'nvme' | 'drivetemp';
      /** The reading used: NVMe's "Composite", drivetemp's "temp1". */
      label: string;
      beforeC: number | null;
      afterC: number | null;
      peakC: number | null;
      /** The drive's own warning and critical temperatures where it reports them. */
      maxC: number | null;
      critC: number | null;
      readings: TemperatureReading[];
    }
  | { disk: string | null; sensor: null; reason: string };

/** A benchmark run as measured, imported or shipped as reference. */
export interface RunRecord {
  id?: number;
  label: string;
  notes: string;
  /** ISO 8601. */
  createdAt: string;
  source: RunSource;
  sourceFormat: SourceFormat;
  /** The source file's own metadata (machine name, date line, comment, profile …). */
  sourceMeta: Record<string, string>;
  target: TargetInfo;
  system?: SystemFacts;
  settings: RunSettings;
  engine: { name: string; version: string; ioEngine?: string };
  results: TestResult[];
  extras: ExtraMetric[];
  warnings: Warning[];
  /** The drive's temperature before, during and after (measured runs; absent elsewhere). */
  temperature?: DriveTemperature;
}
