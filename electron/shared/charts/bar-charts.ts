// The bar chart types: one category per test (or per workload phase, or per latency
// percentile), one bar per run. Each says here, and only here, which rows it draws.
import type { CompareRow } from '../analysis/compare.ts';
import { bytesPerSecTo, formatLatency, formatNumber, formatRatio, throughputLabel } from '../analysis/units.ts';
import { testLabel, testTitle } from '../model/catalog.ts';
import type { BarCategory, BarChartModel, ChartBar, ChartInput } from './chart-model.ts';
import type { ChartType } from './chart-registry.ts';

/** A comparison row as bars, its values turned into the chart's unit by `toValue`. */
export function rowBars(row: CompareRow, toValue: (raw: number) => number, text: (value: number) => string = formatNumber): ChartBar[] {
  // No bar for a run that does not have the test (a scan beside two disks): nothing to draw or say.
  return row.cells.flatMap((cell, runIndex) => {
    if (!cell.inRun) return [];
    const value = cell.value == null ? null : toValue(cell.value);
    return [
      {
        runIndex,
        value,
        valueText: value === null ? null : text(value),
        display: cell.display,
        ratioText: cell.vsBaseline?.ratioText ?? null,
        ...(cell.basis ? { basis: cell.basis } : {}),
      },
    ];
  });
}

const category = (row: CompareRow, bars: ChartBar[], title = row.testTitle): BarCategory => ({
  key: `${row.test}:${row.metric}`,
  test: row.test,
  title,
  bars,
});

const charted = (rows: CompareRow[]) => rows.filter((row) => row.cells.some((c) => c.value !== null));

/** Sequential tests by their parameters (catalog or import), never by the shape of their id. */
const isSequential = (row: CompareRow) => row.params?.rw === 'read' || row.params?.rw === 'write';

export const throughputBars: ChartType = {
  id: 'throughput',
  draws: 'bars per test: the throughput of each sequential test, one bar per run, in the chosen unit',
  inReport: true,
  build({ rows, unit }: ChartInput): BarChartModel[] {
    const drawn = charted(rows.filter((r) => r.kind === 'throughput' && isSequential(r)));
    if (drawn.length === 0) return [];
    return [
      {
        shape: 'bars',
        id: 'throughput',
        type: 'throughput',
        title: 'Sequential read and write',
        unitLabel: throughputLabel(unit),
        direction: 'higher',
        valueFormat: 'number',
        categories: drawn.map((row) =>
          category(
            row,
            rowBars(row, (v) => bytesPerSecTo(v, unit)),
          ),
        ),
      },
    ];
  },
};

export const iopsBars: ChartType = {
  id: 'iops',
  draws: 'bars per test: the IOPS of each random test and the seeks/s of a seek test, one bar per run',
  inReport: true,
  build({ rows }: ChartInput): BarChartModel[] {
    const drawn = charted(rows.filter((r) => r.kind === 'iops'));
    if (drawn.length === 0) return [];
    const seeks = drawn.filter((r) => r.params?.rw === 'seeks').length;
    const unitLabel = seeks === 0 ? 'IOPS' : seeks === drawn.length ? 'seeks/s' : 'IOPS · seeks/s';
    return [
      {
        shape: 'bars',
        id: 'iops',
        type: 'iops',
        title: 'Random I/O and seeks',
        unitLabel,
        direction: 'higher',
        valueFormat: 'number',
        categories: drawn.map((row) =>
          category(
            row,
            rowBars(row, (v) => v),
          ),
        ),
      },
    ];
  },
};

/** A workload phase in words: each timed phase ends with syncfs (bench/kinds/workload.ts). */
const PHASE_TITLES: Record<string, string> = { write: 'write + sync', delete: 'delete + sync', start: 'start (cold cache)' };
export const phaseTitle = (phase: string): string => PHASE_TITLES[phase] ?? phase;
const PHASE_METRIC = 'phaseSeconds:';

export const workloadBars: ChartType = {
  id: 'workload',
  draws: 'bars per test and phase: the seconds of each workload phase (figures phaseSeconds:*), lower is better',
  inReport: true,
  build({ rows }: ChartInput): BarChartModel[] {
    const drawn = charted(rows.filter((r) => r.kind === 'figure' && r.metric.startsWith(PHASE_METRIC)));
    if (drawn.length === 0) return [];
    return [
      {
        shape: 'bars',
        id: 'workload',
        type: 'workload',
        title: 'Workloads: seconds per phase',
        unitLabel: 's',
        direction: 'lower',
        valueFormat: 'number',
        wide: true,
        categories: drawn.map((row) =>
          category(
            row,
            rowBars(
              row,
              (v) => v,
              (v) => `${formatNumber(v)} s`,
            ),
            `${testLabel(row.test, row.params)} · ${phaseTitle(row.metric.slice(PHASE_METRIC.length))}`,
          ),
        ),
      },
    ];
  },
};

/** The percentiles and, beside them, the mean (as fio and KDiskMark print it: compare.ts, LATENCY_FIGURE_RULE). */
export const PERCENTILES = [
  { key: 'p50', label: 'p50' },
  { key: 'mean', label: 'mean' },
  { key: 'p90', label: 'p90' },
  { key: 'p99', label: 'p99' },
  { key: 'p999', label: 'p99.9' },
] as const;

export const latencyPercentileBars: ChartType = {
  id: 'latency',
  draws:
    'bars per percentile (p50, the mean beside it, p90, p99, p99.9) of one test, one bar per run, in µs; one chart per test with percentiles',
  inReport: false,
  picker: { heading: 'Latency percentiles', empty: 'None of these runs reports latency percentiles (imports from bonnie++ carry none).' },
  build({ records }: ChartInput): BarChartModel[] {
    const tests = [
      ...new Set(
        records.flatMap((r) =>
          // A test with percentiles (a mean alone, the sustained write's, is no latency chart).
          r.results
            .filter((t) => t.latencyNs && PERCENTILES.some((p) => p.key !== 'mean' && t.latencyNs?.[p.key] != null))
            .map((t) => t.test),
        ),
      ),
    ];
    return tests.map((test) => ({
      shape: 'bars',
      id: `latency:${test}`,
      type: 'latency',
      subject: testTitle(test, records.flatMap((r) => r.results).find((t) => t.test === test)?.params),
      title: 'Latency',
      unitLabel: 'µs',
      direction: 'lower',
      valueFormat: 'latency-us',
      categories: PERCENTILES.map(({ key, label }) => {
        const ns = records.map((record) => record.results.find((r) => r.test === test)?.latencyNs?.[key] ?? null);
        const base = ns[0];
        return {
          key,
          test,
          title: label,
          bars: ns.map((value, runIndex) => ({
            runIndex,
            value: value == null ? null : value / 1000,
            valueText: value == null ? null : formatLatency(value),
            display: value == null ? '—' : formatLatency(value),
            ratioText: runIndex > 0 && value != null && base != null && base > 0 ? formatRatio(value / base, 'lower') : null,
          })),
        };
      }),
    }));
  },
};
