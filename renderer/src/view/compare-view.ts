// What the Compare page draws, derived from the one comparison (core/analysis/compare.ts):
// bar groups, the speedup table, latency percentiles and overlaid time series. Pure, so
// tests and the app benchmark can run it without a browser.
import { compareRuns, testTitle, type Comparison, type CompareRow } from '../../../electron/core/analysis/compare.ts';
import {
  bytesPerSecTo,
  formatLatency,
  formatNumber,
  formatRatio,
  throughputLabel,
  type ThroughputUnit,
} from '../../../electron/core/analysis/units.ts';
import { testLabel } from '../../../electron/core/model/catalog.ts';
import type { RunRecord, Warning } from '../../../electron/core/model/results.ts';

export interface BarDatum {
  test: string;
  title: string;
  /** What each run's bar says above it: its value, and for #2… its ratio to #1 ("631.1", "×15.3"). */
  labels: Array<BarLabelText | undefined>;
  /** What each run's bar stands on (workload figures: the passes and their range); undefined for rates. */
  bases?: Array<string | undefined>;
  /** One value per run, keyed r0…r5; undefined where the run has no such figure. */
  [run: `r${number}`]: number | undefined;
}

export interface BarLabelText {
  value: string;
  ratio?: string;
}

export type ScaleMode = 'auto' | 'linear' | 'log';

/** Pixels per character of a 10 px label, a little generous so that estimates never overlap. */
export const LABEL_CHAR_PX = 5.8;

/** How a bar's label fits above it: one line, value over ratio, or sideways when the bar is narrow. */
export function labelLayout(label: BarLabelText, barWidthPx: number): 'line' | 'two-lines' | 'sideways' {
  const one = `${label.value}${label.ratio ? ` ${label.ratio}` : ''}`;
  if (one.length * LABEL_CHAR_PX <= barWidthPx + 6) return 'line';
  if (Math.max(label.value.length, label.ratio?.length ?? 0) * LABEL_CHAR_PX <= barWidthPx + 6) return 'two-lines';
  return 'sideways';
}

/** The room (px) the tallest label needs above its bar. */
export function labelRoomPx(data: ReadonlyArray<{ labels: Array<BarLabelText | undefined> }>, barWidthPx: number): number {
  let room = 0;
  for (const label of data.flatMap((d) => d.labels)) {
    if (!label) continue;
    const layout = labelLayout(label, barWidthPx);
    const text = `${label.value}${label.ratio ? ` ${label.ratio}` : ''}`;
    room = Math.max(room, layout === 'line' ? 16 : layout === 'two-lines' ? 28 : text.length * LABEL_CHAR_PX + 8);
  }
  return room;
}

/**
 * Past this spread (largest / smallest bar) a linear axis draws the small bars as nothing:
 * 42 MB/s beside 6,332 MB/s is a 0.2-pixel bar on a 300-pixel chart. "auto" then uses a
 * log axis, on which every bar keeps a readable height.
 */
export const AUTO_LOG_SPREAD = 10;

export interface ScaleChoice {
  log: boolean;
  /** Said next to the chart's title: why this axis ("log scale: values span ×150"). */
  note: string;
}

export function chooseScale(data: readonly object[], keys: string[], mode: ScaleMode): ScaleChoice {
  const values = data
    .flatMap((d) => keys.map((k) => (d as Record<string, unknown>)[k]))
    .filter((v): v is number => typeof v === 'number' && v > 0);
  const spread = values.length > 0 ? Math.max(...values) / Math.min(...values) : 1;
  const span = `values span ×${formatNumber(Math.round(spread))}`;
  if (mode === 'log') return { log: true, note: 'log scale' };
  if (mode === 'linear')
    return { log: false, note: spread >= AUTO_LOG_SPREAD ? `linear scale: ${span}, small bars may not show` : 'linear scale' };
  return spread >= AUTO_LOG_SPREAD ? { log: true, note: `log scale: ${span}` } : { log: false, note: 'linear scale' };
}

export interface BarGroup {
  id: 'throughput' | 'iops' | 'workload';
  title: string;
  unitLabel: string;
  /** Said beside the unit: "lower is better" for times; rates leave it out (higher is the rule). */
  direction?: string;
  data: BarDatum[];
}

/** A workload phase in words: each timed phase ends with syncfs (bench/kinds/workload.ts). */
const PHASE_TITLES: Record<string, string> = { write: 'write + sync', delete: 'delete + sync', start: 'start (cold cache)' };
export const phaseTitle = (phase: string): string => PHASE_TITLES[phase] ?? phase;

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
      const datum: BarDatum = { test: row.test, title: row.testTitle, labels: [] };
      row.cells.forEach((cell, i) => {
        datum[`r${i}`] = cell.value == null ? undefined : toValue(cell.value);
        datum.labels[i] = cell.value == null ? undefined : withRatio(formatNumber(toValue(cell.value)), cell.vsBaseline?.ratioText);
      });
      return datum;
    });
  // Seconds per phase (workloads, imported or reference timings): one bar per run, per test and phase.
  const phaseRows = comparison.rows.filter((r) => r.kind === 'figure' && r.metric.startsWith('phaseSeconds:'));
  const phaseData = (rows: CompareRow[]): BarDatum[] =>
    rows.map((row) => {
      const datum = barData([row], (v) => v)[0]!;
      datum.title = `${testLabel(row.test, row.params)} · ${phaseTitle(row.metric.slice('phaseSeconds:'.length))}`;
      datum.labels = row.cells.map((cell) =>
        cell.value == null ? undefined : withRatio(`${formatNumber(cell.value)} s`, cell.vsBaseline?.ratioText),
      );
      datum.bases = row.cells.map((cell) => cell.basis);
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
  if (phaseRows.length > 0) {
    bars.push({
      id: 'workload',
      title: 'Workloads: seconds per phase',
      unitLabel: 's',
      direction: 'lower is better',
      data: phaseData(phaseRows),
    });
  }
  const seriesTests = [
    ...new Set(records.flatMap((r) => r.results.filter((t) => t.runs.some((m) => m.samples.length > 0)).map((t) => t.test))),
  ];
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

export type PercentileRow = { percentile: string; labels: Array<BarLabelText | undefined> } & Record<`r${number}`, number | undefined>;

const withRatio = (value: string, ratio: string | undefined): BarLabelText => (ratio ? { value, ratio } : { value });

/**
 * Latency percentiles of one test per run, in µs, for the percentile chart, each bar labelled
 * with its latency and, for #2…, how it compares with #1 ("461 µs 213× lower").
 */
export function latencyPercentiles(records: RunRecord[], test: string): PercentileRow[] {
  return PERCENTILES.map(({ key, label }) => {
    const row: PercentileRow = { percentile: label, labels: [] };
    const ns = records.map((record) => record.results.find((r) => r.test === test)?.latencyNs?.[key] ?? null);
    ns.forEach((value, i) => {
      row[`r${i}`] = value == null ? undefined : value / 1000;
      const base = ns[0];
      const ratio = i > 0 && value != null && base != null && base > 0 ? formatRatio(value / base, 'lower') : undefined;
      row.labels[i] = value == null ? undefined : withRatio(formatLatency(value), ratio);
    });
    return row;
  });
}

/** Tests with at least one latency percentile in some run. */
export function latencyTests(records: RunRecord[]): string[] {
  return [
    ...new Set(
      records.flatMap((r) =>
        r.results.filter((t) => t.latencyNs && PERCENTILES.some((p) => t.latencyNs?.[p.key] != null)).map((t) => t.test),
      ),
    ),
  ];
}

/** Log axes cannot show 0 or nothing: the domain spans the positive values with headroom. */
export function logDomain(data: readonly object[], keys: string[]): [number, number] {
  const values = data
    .flatMap((d) => keys.map((k) => (d as Record<string, unknown>)[k]))
    .filter((v): v is number => typeof v === 'number' && v > 0);
  if (values.length === 0) return [1, 10];
  const min = Math.min(...values);
  const max = Math.max(...values);
  return [10 ** Math.floor(Math.log10(min)), 10 ** Math.ceil(Math.log10(max))];
}

export { testTitle };

/**
 * A category label broken into lines that fit its share of the axis (at 1280 px the titles
 * "sequential read 1M Q8T1" of neighbouring groups ran into each other). Words are kept
 * whole; a word longer than the line keeps its own line; at most maxLines, the last one
 * ending in "…" if the title still does not fit.
 */
export function wrapTickLabel(text: string, widthPx: number, charPx = 6.2, maxLines = 3): string[] {
  const perLine = Math.max(4, Math.floor(widthPx / charPx));
  const lines: string[] = [];
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 1 + word.length <= perLine) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  kept[maxLines - 1] = `${kept[maxLines - 1]!.slice(0, Math.max(1, perLine - 1))}…`;
  return kept;
}

/**
 * The value axis with `room` (a fraction of the plot's height) free above the tallest bar for
 * its label: linear from 0, log from the power of ten under the smallest bar.
 */
export function chartDomain(data: readonly object[], keys: string[], log: boolean, room = 0.2): [number, number] {
  const values = data
    .flatMap((d) => keys.map((k) => (d as Record<string, unknown>)[k]))
    .filter((v): v is number => typeof v === 'number' && v > 0);
  if (values.length === 0) return log ? [1, 10] : [0, 1];
  const free = Math.min(0.7, Math.max(0.05, room));
  const max = Math.max(...values);
  if (!log) return [0, max / (1 - free)];
  const [low] = logDomain(data, keys);
  const decades = Math.max(0.5, Math.log10(max / low));
  return [low, low * 10 ** (decades / (1 - free))];
}
