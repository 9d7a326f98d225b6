// What the Compare page draws, derived from the one comparison (shared/analysis/compare.ts):
// the chart registry's charts (shared/charts/, the same models the report prints), the
// speedup table, and each run's warnings; plus the axis and label geometry the app's charts
// use. Pure, so tests and the app benchmark can run it without a browser.
import { compareRuns, testTitle, type Comparison, type CompareRow } from '../analysis/compare.ts';
import type { ThroughputUnit } from '../analysis/units.ts';
import type { BarChartModel, ChartModel } from './chart-model.ts';
import { CHARTS } from './charts.ts';
import { groupWarnings } from '../model/warning-scope.ts';
import { logDomain } from './chart-scale.ts';
import type { RunRecord, Warning } from '../model/results.ts';

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

export interface RunWarnings {
  runIndex: number;
  label: string;
  warnings: Array<Warning & { test: string | null }>;
}

export interface CompareView {
  comparison: Comparison;
  /** The registry's charts for the app, in registry order (shared/charts/charts.ts). */
  charts: ChartModel[];
  /** Rows with a ratio against the baseline (the first run). */
  speedups: CompareRow[];
  latencyRows: CompareRow[];
  warnings: RunWarnings[];
}

export function buildCompareView(records: RunRecord[], unit: ThroughputUnit): CompareView {
  const comparison = compareRuns(records, { unit });
  return {
    comparison,
    charts: CHARTS.build({ records, comparison, unit }, 'app'),
    speedups: comparison.rows.filter((r) => r.kind !== 'latency' && r.cells.some((c) => c.vsBaseline)),
    latencyRows: comparison.rows.filter((r) => r.kind === 'latency'),
    warnings: records.map((record, runIndex) => ({
      runIndex,
      label: record.label,
      // Those that can affect this run's figures, a warning its tests share said once ("all 10
      // tests"), as the report says them (model/warning-scope.ts, #39 item 6).
      warnings: groupWarnings([record]).map((g) => ({ code: g.code, message: g.message, test: g.where.replace(/^on /, '') || null })),
    })),
  };
}

/** A bar chart model as rows: one per category, its runs' values keyed r0…r5 (bar-layout.ts places them). */
export function barRows(chart: BarChartModel): BarDatum[] {
  return chart.categories.map((category) => {
    const datum: BarDatum = { test: category.test, title: category.title, labels: [] };
    for (const bar of category.bars) {
      datum[`r${bar.runIndex}`] = bar.value ?? undefined;
      datum.labels[bar.runIndex] =
        bar.valueText === null ? undefined : bar.ratioText ? { value: bar.valueText, ratio: bar.ratioText } : { value: bar.valueText };
    }
    if (category.bars.some((b) => b.basis)) datum.bases = category.bars.map((b) => b.basis);
    return datum;
  });
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
