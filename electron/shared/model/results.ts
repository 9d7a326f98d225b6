// The result model's values and the names its users import it by. The shapes are the zod
// schemas of schemas.ts, their types inferred there; this module re-exports those types only,
// so the renderer (which imports it for STATISTICS and isFailedResult) bundles no zod. It
// imports schemas.ts for types only, and schemas.ts nothing from here: model/ has no cycle.
// Raw units only: bytes per second, I/Os per second, nanoseconds (see schemas.ts).

export type {
  CpuTime,
  DriveTemperature,
  ExtraMetric,
  Figure,
  LatencyHistogram,
  LatencyNs,
  ResultPrecision,
  RunMeasurement,
  RunRecord,
  RunSettings,
  Sample,
  TargetInfo,
  TemperatureReading,
  TestParams,
  TestResult,
  Warning,
} from './schemas.ts';
/** A rate test's access patterns: one table, model/test-params.ts. */
export type { AccessPattern } from './access-patterns.ts';
export type { RunSource } from './figure-terms.ts';
export type { SourceFormat } from './source-formats.ts';
import type { TestResult } from './schemas.ts';

/** How a result's figure combines its runs (one list, with the other words of a figure). */
export { STATISTICS, type Statistic } from './figure-terms.ts';

/**
 * Warning code of a test that ran and failed (a fio job with a non-zero error, say). Such a
 * result keeps every figure null: a failure is never stored as 0 B/s or 0 IOPS, which would
 * read as a measurement of a dead disk.
 */
export const FAILED_TEST = 'test-failed';

export function isFailedResult(result: Pick<TestResult, 'warnings'>): boolean {
  return result.warnings.some((w) => w.code === FAILED_TEST);
}
