// What the Compare page draws, derived from the one comparison (core/analysis/compare.ts):
// bar groups, the speedup table, latency percentiles and overlaid time series. Pure, so
// tests and the app benchmark can run it without a browser.
import { compareRuns, testTitle, type Comparison, type CompareRow } from '../../../electron/core/analysis/compare.ts';
import { bytesPerSecTo, throughputLabel, type ThroughputUnit } from '../../../electron/core/analysis/units.ts';
import type { RunRecord, Warning } from '../../../electron/core/model/results.ts';

export interface BarDatum {
  test: string;
  title: string;
  /** One value per run, keyed r0…r5; undefined where the run has no such figure. */
  [run: `r${number}`]: number | undefined;
}

export interface BarGroup {
  id: 'throughput' | 'iops';
  title: string;
  unitLabel: string;
  data: BarDatum[];
}

export interface SeriesLine {
  runIndex: number;
  points: Array<{ tMs: number; value: number }>;
}

export interface RunWarnings {
  runIndex: number;
  label: string;
  warnings: Array<Warning & { test: string | null }>;
}

export interface CompareView {
  comparison: Comparison;
  bars: BarGroup[];
  /** Rows with a ratio against the baseline (the first run). */
  speedups: CompareRow[];
  latencyRows: CompareRow[];
  /** Tests that have samples in at least one run, for the time-series picker. */
  seriesTests: string[];
  warnings: RunWarnings[];
}

/** Sequential tests by their parameters (catalog or import), never by the shape of their id. */
const isSequential = (row: CompareRow) => row.params?.rw === 'read' || row.params?.rw === 'write';

export function buildCompareView(records: RunRecord[], unit: ThroughputUnit): CompareView {
  const comparison = compareRuns(records, { unit });
  const barData = (rows: CompareRow[], toValue: (v: number) => number): BarDatum[] =>
    rows.map((row) => {
      const datum: BarDatum = { test: row.test, title: row.testTitle };
      row.cells.forEach((cell, i) => {
        datum[`r${i}`] = cell.value == null ? undefined : toValue(cell.value);
      });
      return datum;
    });
  const throughputRows = comparison.rows.filter((r) => r.kind === 'throughput' && isSequential(r));
  const iopsRows = comparison.rows.filter((r) => r.kind === 'iops');
  const bars: BarGroup[] = [];
  if (throughputRows.length > 0) {
    bars.push({
      id: 'throughput',
      title: 'Sequential read and write',
      unitLabel: throughputLabel(unit),
      data: barData(throughputRows, (v) => bytesPerSecTo(v, unit)),
    });
  }
  if (iopsRows.length > 0) {
    bars.push({ id: 'iops', title: 'Random I/O and seeks', unitLabel: 'IOPS · seeks/s', data: barData(iopsRows, (v) => v) });
  }
  const seriesTests = [...new Set(records.flatMap((r) => r.results.filter((t) => t.runs.some((m) => m.samples.length > 0)).map((t) => t.test)))];
  return {
    comparison,
    bars,
    speedups: comparison.rows.filter((r) => r.kind !== 'latency' && r.cells.some((c) => c.vsBaseline)),
    latencyRows: comparison.rows.filter((r) => r.kind === 'latency'),
    seriesTests,
    warnings: records.map((record, runIndex) => ({
      runIndex,
      label: record.label,
      warnings: [
        ...record.warnings.map((w) => ({ ...w, test: null })),
        ...record.results.flatMap((t) => t.warnings.map((w) => ({ ...w, test: t.test }))),
      ],
    })),
  };
}

/** Throughput over time of one test, run 1 of each record (the runs are alike by design). */
export function seriesFor(records: RunRecord[], test: string, unit: ThroughputUnit, maxPoints = 300): SeriesLine[] {
  return records.flatMap((record, runIndex) => {
    const result = record.results.find((r) => r.test === test);
    const samples = result?.runs[0]?.samples ?? [];
    if (samples.length === 0) return [];
    const points = downsample(samples, maxPoints).map((s) => ({ tMs: s.tMs, value: bytesPerSecTo(s.bytesPerSec, unit) }));
    return [{ runIndex, points }];
  });
}

/**
 * At most maxPoints samples, keeping each bucket's lowest and highest in time order: a chart
 * a few hundred pixels wide shows no more, and the dips and spikes a person looks for stay.
 */
export function downsample<T extends { tMs: number; bytesPerSec: number }>(samples: T[], maxPoints: number): T[] {
  if (samples.length <= maxPoints) return samples;
  const buckets = Math.max(1, Math.floor(maxPoints / 2));
  const size = samples.length / buckets;
  const out: T[] = [];
  for (let b = 0; b < buckets; b++) {
    const bucket = samples.slice(Math.floor(b * size), Math.floor((b + 1) * size));
    if (bucket.length === 0) continue;
    let lo = bucket[0]!;
    let hi = bucket[0]!;
    for (const s of bucket) {
      if (s.bytesPerSec < lo.bytesPerSec) lo = s;
      if (s.bytesPerSec > hi.bytesPerSec) hi = s;
    }
    if (lo === hi) out.push(lo);
    else out.push(...(lo.tMs < hi.tMs ? [lo, hi] : [hi, lo]));
  }
  return out;
}

export const PERCENTILES = [
  { key: 'p50', label: 'p50' },
  { key: 'p90', label: 'p90' },
  { key: 'p99', label: 'p99' },
  { key: 'p999', label: 'p99.9' },
] as const;

/** Latency percentiles of one test per run, in µs, for the percentile chart. */
export function latencyPercentiles(records: RunRecord[], test: string): Array<{ percentile: string } & Record<`r${number}`, number | undefined>> {
  return PERCENTILES.map(({ key, label }) => {
    const row: { percentile: string } & Record<`r${number}`, number | undefined> = { percentile: label };
    records.forEach((record, i) => {
      const ns = record.results.find((r) => r.test === test)?.latencyNs?.[key];
      row[`r${i}`] = ns == null ? undefined : ns / 1000;
    });
    return row;
  });
}

/** Tests with at least one latency percentile in some run. */
export function latencyTests(records: RunRecord[]): string[] {
  return [...new Set(records.flatMap((r) => r.results.filter((t) => t.latencyNs && PERCENTILES.some((p) => t.latencyNs?.[p.key] != null)).map((t) => t.test)))];
}

/** Log axes cannot show 0 or nothing: the domain spans the positive values with headroom. */
export function logDomain(data: readonly object[], keys: string[]): [number, number] {
  const values = data.flatMap((d) => keys.map((k) => (d as Record<string, unknown>)[k])).filter((v): v is number => typeof v === 'number' && v > 0);
  if (values.length === 0) return [1, 10];
  const min = Math.min(...values);
  const max = Math.max(...values);
  return [10 ** Math.floor(Math.log10(min)), 10 ** Math.ceil(Math.log10(max))];
}

export { testTitle };
