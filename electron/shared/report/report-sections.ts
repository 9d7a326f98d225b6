// The report's sections by what each run is (model/run-kind.ts): disks, workloads and sustained
// writes in the figures and their charts; a discard-cost experiment only in the TRIM section; a
// working-set scan or a file-access recording only in the size section. A report of two disks
// beside an experiment and a scan once carried the two in every table and chart as columns of
// "— (test not in this run)" (#39). Each section compares its own runs; the charts keep each
// run's number and colour of the whole report.
import { compareRuns, type Comparison } from '../analysis/compare.ts';
import type { ThroughputUnit } from '../analysis/units.ts';
import type { ChartModel } from '../charts/chart-model.ts';
import { CHARTS } from '../charts/charts.ts';
import type { RunRecord } from '../model/results.ts';
import { runKind, type RunKind } from '../model/run-kind.ts';

export type ReportPart = 'figures' | 'trim' | 'size';

const PART_OF_KIND: Readonly<Record<RunKind, ReportPart>> = {
  disk: 'figures',
  'fleet-host': 'figures',
  workload: 'figures',
  'sustained-write': 'figures',
  surface: 'figures',
  unknown: 'figures',
  'discard-cost': 'trim',
  'working-set': 'size',
  'access-recording': 'size',
};

/** The part of the report a run is shown in. */
export function reportPart(record: RunRecord): ReportPart {
  return PART_OF_KIND[runKind(record)];
}

export interface ReportFigures {
  /** The report's run indexes this section shows, in order: its columns. */
  runIndexes: number[];
  /** These runs compared among themselves (cell i is run runIndexes[i]); null: no such run. */
  comparison: Comparison | null;
  charts: ChartModel[];
}

/** A chart of a subset of the runs, its bars and lines numbered as the report numbers the runs. */
export function reindexChart(chart: ChartModel, runIndexes: readonly number[]): ChartModel {
  const to = (i: number) => runIndexes[i] ?? i;
  if (chart.shape === 'bars')
    return { ...chart, categories: chart.categories.map((c) => ({ ...c, bars: c.bars.map((b) => ({ ...b, runIndex: to(b.runIndex) })) })) };
  if (chart.shape === 'series') return { ...chart, lines: chart.lines.map((l) => ({ ...l, runIndex: to(l.runIndex) })) };
  return chart;
}

/** The runs of one part, compared among themselves, with the charts that print (all, or those of `types`). */
export function partFigures(
  records: readonly RunRecord[],
  part: ReportPart,
  unit: ThroughputUnit,
  types?: readonly string[],
): ReportFigures {
  const runIndexes = records.flatMap((r, i) => (reportPart(r) === part ? [i] : []));
  if (runIndexes.length === 0) return { runIndexes, comparison: null, charts: [] };
  const subset = runIndexes.map((i) => records[i]!);
  const comparison = compareRuns(subset, { unit });
  const charts = CHARTS.build({ records: subset, comparison, unit }, 'report')
    .filter((c) => !types || types.includes(c.type))
    .map((c) => reindexChart(c, runIndexes));
  return { runIndexes, comparison, charts };
}
