// What a fleet report contains (issue #26): the fleet compare (analysis/fleet-compare.ts) as a
// printable document, decided once for the app's Fleet page, the report file and its PDF. Its
// charts are chart models (charts/chart-model.ts), so the report's SVG drawer and the app's
// chart views draw them as they draw Compare's: the fleet's 10th percentile, median and 90th
// percentile of each figure side by side. Pure (no Node, no DOM): the renderer builds it too.
import { FLEET_FIGURES, type FleetComparison, type FleetFigureId } from '../analysis/fleet-compare.ts';
import { formatIops, formatNumber, formatThroughput, bytesPerSecTo, throughputLabel, type ThroughputUnit } from '../analysis/units.ts';
import type { BarChartModel } from '../charts/chart-model.ts';
import type { Paper } from './paper.ts';

/** Said wherever fleet figures are shown: fio gives one mean per job, never a run-to-run spread. */
export const FLEET_SPREAD_NOTE =
  'One fio run per test: no spread. Every figure is the single mean of one fio job, so no figure here has a run-to-run spread or interval, and a difference between two hosts of a few percent may be noise.';

/** The chart legend's entries, in the bars' order (runIndex). */
export const FLEET_CHART_LEGEND = ['10th percentile', 'median', '90th percentile'] as const;

export interface FleetReportHost {
  host: string;
  device: string;
  /** "hard disk", "SSD" or "unknown": told from the figures (random 4K QD1 reads), not reported by the host. */
  disk: string;
  /** One text per column of `columns`. */
  figures: string[];
  /** "low: sequential read, random 4K read QD1", or "". */
  outliers: string;
  verdict: string;
}

export interface FleetReportDocument {
  kind: 'fleet';
  title: string;
  generatedAt: string;
  paper: Paper;
  appVersion: string;
  summary: string;
  spreadNote: string;
  /** The figures measured on at least one host, as the hosts' columns. */
  columns: string[];
  stats: Array<{ figure: string; hosts: number; p10: string; median: string; p90: string }>;
  /** "198.18.0.18:8765 — low on sequential read, …", one per host outside the fences. */
  outliers: string[];
  hosts: FleetReportHost[];
  charts: BarChartModel[];
  superseded: string[];
}

type Figure = (typeof FLEET_FIGURES)[number];

export function fleetFigureText(figure: Figure, value: number | undefined, unit: ThroughputUnit = 'MB'): string {
  if (value === undefined) return '—';
  if (figure.metric === 'bytesPerSec') return formatThroughput(value, unit);
  return formatIops(value, figure.metric === 'seeks' ? 'seeks/s' : 'IOPS');
}

const DISK_TEXT = { hdd: 'hard disk', ssd: 'SSD', unknown: 'unknown' } as const;

export function outlierText(outliers: FleetComparison['rows'][number]['outliers']): string {
  const side = (s: 'low' | 'high') =>
    outliers.filter((o) => o.side === s).map((o) => FLEET_FIGURES.find((f) => f.id === o.figure)?.label ?? o.figure);
  return (['low', 'high'] as const)
    .filter((s) => side(s).length > 0)
    .map((s) => `${s}: ${side(s).join(', ')}`)
    .join('; ');
}

/** One chart per kind of figure (throughput, I/Os per second), each figure a category of three bars. */
function fleetCharts(fleet: FleetComparison, unit: ThroughputUnit): BarChartModel[] {
  const stat = (id: FleetFigureId) => fleet.stats.find((s) => s.figure === id);
  const chart = (id: string, title: string, unitLabel: string, figures: Figure[], value: (f: Figure, v: number) => number) => {
    const categories = figures.flatMap((f) => {
      const s = stat(f.id);
      if (!s) return [];
      const values = [s.p10, s.median, s.p90];
      return [
        {
          key: f.id,
          test: f.test,
          title: `${f.label} (${s.hosts} hosts)`,
          bars: values.map((v, runIndex) => ({
            runIndex,
            value: value(f, v),
            valueText: formatNumber(value(f, v)),
            display: fleetFigureText(f, v, unit),
            ratioText: null,
          })),
        },
      ];
    });
    if (categories.length === 0) return [];
    const model: BarChartModel = {
      id,
      type: 'fleet-percentiles',
      shape: 'bars',
      title,
      unitLabel,
      direction: 'higher',
      valueFormat: 'number',
      categories,
    };
    return [model];
  };
  return [
    ...chart(
      'fleet-throughput',
      "The fleet's sequential figures: 10th percentile, median, 90th percentile",
      throughputLabel(unit),
      FLEET_FIGURES.filter((f) => f.metric === 'bytesPerSec'),
      (_f, v) => bytesPerSecTo(v, unit),
    ),
    ...chart(
      'fleet-iops',
      "The fleet's random figures: 10th percentile, median, 90th percentile",
      'IOPS, seeks/s',
      FLEET_FIGURES.filter((f) => f.metric !== 'bytesPerSec'),
      (_f, v) => v,
    ),
  ];
}

export function buildFleetReport(
  fleet: FleetComparison,
  options: { generatedAt: Date; paper?: Paper; unit?: ThroughputUnit; appVersion?: string },
): FleetReportDocument {
  const unit = options.unit ?? 'MB';
  const shown = FLEET_FIGURES.filter((f) => fleet.stats.some((s) => s.figure === f.id));
  return {
    kind: 'fleet',
    title: `Fleet assessment: ${fleet.rows.length} host${fleet.rows.length === 1 ? '' : 's'}`,
    generatedAt: options.generatedAt.toISOString(),
    paper: options.paper ?? 'a4',
    appVersion: options.appVersion ?? '',
    summary: fleet.summary,
    spreadNote: FLEET_SPREAD_NOTE,
    columns: shown.map((f) => f.label),
    stats: fleet.stats.map((s) => {
      const f = FLEET_FIGURES.find((x) => x.id === s.figure) as Figure;
      return {
        figure: f.label,
        hosts: s.hosts,
        p10: fleetFigureText(f, s.p10, unit),
        median: fleetFigureText(f, s.median, unit),
        p90: fleetFigureText(f, s.p90, unit),
      };
    }),
    outliers: fleet.rows.filter((r) => r.outliers.length > 0).map((r) => `${r.host}: ${outlierText(r.outliers)}`),
    hosts: fleet.rows.map((r) => ({
      host: r.host,
      device: r.device ?? 'not reported',
      disk: DISK_TEXT[r.deviceClass],
      figures: shown.map((f) => fleetFigureText(f, r.figures[f.id], unit)),
      outliers: outlierText(r.outliers),
      verdict: r.verdict,
    })),
    charts: fleetCharts(fleet, unit),
    superseded: fleet.superseded,
  };
}
