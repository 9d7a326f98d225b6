// The chart model: what one chart shows, as plain data. A chart type of the registry
// (chart-registry.ts) makes it from the compared runs; one SVG drawing of it
// (electron/shared/charts/chart-svg.ts) is what the app shows and the report prints, so no
// drawing names a test, a metric or a chart type. Pure data, no functions: the report's
// document carries it as it is.
import type { Comparison, CompareRow } from '../analysis/compare.ts';
import { formatBytes, formatLatency, formatTick, type ThroughputUnit } from '../analysis/units.ts';
import type { RunRecord } from '../model/results.ts';
import { decimalBytes } from '../analysis/sustained-write.ts';

export type ChartDirection = 'higher' | 'lower' | 'none';

/** How an axis' values read: plain numbers, latency held in µs, bytes (binary units), milliseconds. */
/** 'bytes': binary units (a block size, 4 KiB); 'decimal-bytes': a drive's box's (bytes written, 400 MB). */
export type AxisFormat = 'number' | 'latency-us' | 'bytes' | 'decimal-bytes' | 'ms';

/** One run's bar in one category. */
export interface ChartBar {
  runIndex: number;
  /** In the chart's unit (MB/s, IOPS, s, µs …); null: the run has no such figure. */
  value: number | null;
  /** Short, above the app's bar: "631.1", "0.300 s", "900 µs". */
  valueText: string | null;
  /** With its unit, for the report's row and tables: "631.1 MB/s", "— (test not in this run)". */
  display: string;
  /** Against run #1 ("×15.3", "213× lower"); null for #1 or without both values. */
  ratioText: string | null;
  /** How the figure was obtained (a workload's passes and their range), when stored. */
  basis?: string;
}

/** A category of a bar chart: one test (or a test's phase, or a percentile), one bar per run. */
export interface BarCategory {
  key: string;
  test: string;
  title: string;
  bars: ChartBar[];
}

interface ChartBase {
  /** Unique among the charts of one comparison. */
  id: string;
  /** The registry entry that made it. */
  type: string;
  title: string;
  unitLabel: string;
  direction: ChartDirection;
  /** The test it is of, in words, when its type draws one chart per test (the app's picker lists them). */
  subject?: string;
  /** Wide in the app's grid (many categories). */
  wide?: boolean;
}

export interface BarChartModel extends ChartBase {
  shape: 'bars';
  /** How the value axis reads. */
  valueFormat: AxisFormat;
  categories: BarCategory[];
}

export interface SeriesPoint {
  x: number;
  y: number;
}

export interface SeriesLine {
  runIndex: number;
  points: SeriesPoint[];
}

export interface SeriesAxis {
  label: string;
  format: AxisFormat;
  /** 'log2' spaces powers of two evenly (block sizes, cache sizes). */
  scale: 'linear' | 'log2';
  /** The values to mark (the swept block sizes); undefined: the renderer picks. */
  ticks?: number[];
  /** From … to, the same in the app and the report (a time axis starts at 0); undefined: the points' own span. */
  domain?: [number, number];
}

/**
 * A stretch of x marked on a run's line, in its colour: a disk's slowest zone, a steady-state
 * window. Shaded full height, or over its band alone when it has one (the values a rule judged
 * it against) with its least-squares line; above the plot a bar in a lane of its own, tagged.
 */
export interface SeriesMark {
  runIndex: number;
  /** From … to along x (axis values, not positions). */
  x: [number, number];
  /** Short, beside its bar above the plot: "#1 slowest zone: 8.4 MB/s", "steady: rounds 3–7". */
  tag: string;
  /** Whole, as its hover title. */
  label: string;
  /** Low … high, in the chart's unit. */
  band?: [number, number];
  /** The fitted line's ends, at x[0] and x[1]. */
  fit?: [number, number];
  /** Met the rule (false: the stretch that was judged last and failed); undefined: no rule. */
  met?: boolean;
}

/** Lines over a parameter (block size), over time, over bytes written, over cache size. */
export interface SeriesChartModel extends ChartBase {
  shape: 'series';
  x: SeriesAxis;
  valueFormat: AxisFormat;
  /** Mark each point (a sweep's few measured sizes); a dense time series draws the line alone. */
  markers: boolean;
  lines: SeriesLine[];
  /** A line under the chart, in the app and the report: what each line covers, when that needs saying. */
  note?: string;
  /** Stretches of x marked on runs' lines (slowest zones, steady-state windows). */
  marks?: SeriesMark[];
}

/** One cell of a table chart: its text with unit, and how it was obtained when stored. */
export interface TableCell {
  display: string;
  basis?: string;
}

/** A block of a table chart: one pair of runs (the seed's, this disk's), its rows and what to know. */
export interface TableGroup {
  key: string;
  title: string;
  /** emphasis: a row that sums up the others (what discard costs), set in bold. */
  rows: Array<{ key: string; title: string; cells: TableCell[]; emphasis?: boolean }>;
  /** Lines under the block (fstrim's time, the verdict, warnings). */
  notes: string[];
}

/** A small table the figures only read right in (the seed's 2×2 of the discard option). */
export interface TableChartModel extends ChartBase {
  shape: 'table';
  /** Headings across: the first heads the row titles. */
  columns: string[];
  /** Beside the title, what kind of table it is; undefined: "a table: the published shape". */
  captionNote?: string;
  groups: TableGroup[];
}

export type ChartModel = BarChartModel | SeriesChartModel | TableChartModel;

/**
 * A dash per run, so the app's and the report's lines are told apart without colour (greyscale,
 * colour blindness): #1 solid, then dashed, dotted, dash-dot… by run index.
 */
export const SERIES_DASHES = ['', '8 4', '2 3', '10 3 2 3', '4 2', '12 3 2 3 2 3'];

/** What a chart type is given: the runs, their one comparison, and the rows no other type claimed. */
export interface ChartInput {
  records: RunRecord[];
  comparison: Comparison;
  unit: ThroughputUnit;
  /** The comparison's rows minus those of tests another chart type draws (a sweep's tests). */
  rows: CompareRow[];
}

/** An axis value as text, the same in the app and the report. */
export function formatAxisValue(format: AxisFormat, value: number): string {
  if (format === 'latency-us') return formatLatency(value * 1000);
  if (format === 'bytes') return formatBytes(value);
  if (format === 'decimal-bytes') return value === 0 ? '0' : decimalBytes(value);
  if (format === 'ms') return `${formatTick(value)} ms`;
  return formatTick(value);
}

/** Where a value sits along an axis before scaling to pixels: log2 of it on a log2 axis. */
export function axisPosition(scale: SeriesAxis['scale'], value: number): number {
  return scale === 'log2' ? Math.log2(Math.max(value, Number.MIN_VALUE)) : value;
}

/** Every bar of a chart (none for a series): what a printed chart must show a rect for. */
export function barsOf(chart: ChartModel): ChartBar[] {
  return chart.shape === 'bars' ? chart.categories.flatMap((c) => c.bars) : [];
}
