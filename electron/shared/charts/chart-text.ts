// A chart's text alternative, from its model alone (so every chart of the registry has one,
// and a new chart type gets it without a line here): a short name for the drawing, and a
// table of what it shows — bars: one row per category, one column per run, each cell the
// figure and its ratio to #1; series: one row per run with its points' range and median; a
// table chart is its own table: the name says so, and its rows are its groups' rows.
import { formatAxisValue, type ChartModel } from './chart-model.ts';
import { maxOf, minOf } from '../model/extremes.ts';

export interface ChartText {
  /** For the drawing's aria-label: what it is and where its figures are. */
  name: string;
  head: string[];
  rows: string[][];
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export function chartText(chart: ChartModel, labels: string[]): ChartText {
  const run = (i: number) => `#${i + 1} ${labels[i] ?? ''}`.trim();
  if (chart.shape === 'table') {
    return {
      name: `${chart.title}: a table of ${chart.groups.length} ${chart.groups.length === 1 ? 'block' : 'blocks'}, shown as text`,
      head: chart.columns,
      rows: chart.groups.flatMap((g) => g.rows.map((r) => [`${g.title}: ${r.title}`, ...r.cells.map((c) => c.display)])),
    };
  }
  const value = (v: number) =>
    chart.valueFormat === 'number' ? `${formatAxisValue('number', v)} ${chart.unitLabel}` : formatAxisValue(chart.valueFormat, v);
  if (chart.shape === 'bars') {
    return {
      name: `${chart.title}: bar chart of ${chart.categories.length} ${chart.categories.length === 1 ? 'category' : 'categories'} × ${labels.length} runs; its figures are in the table that follows`,
      head: ['', ...labels.map((_, i) => run(i))],
      rows: chart.categories.map((c) => [
        c.title,
        ...labels.map((_, i) => {
          const bar = c.bars.find((b) => b.runIndex === i);
          return bar ? `${bar.display}${bar.ratioText ? ` (${bar.ratioText})` : ''}` : '—';
        }),
      ]),
    };
  }
  const x = (v: number) => formatAxisValue(chart.x.format, v);
  return {
    name: `${chart.title}: line chart of ${chart.lines.length} runs over ${chart.x.label}; each line's range is in the table that follows`,
    head: ['', 'points', `${chart.x.label} from … to`, 'lowest', 'median', 'highest'],
    rows: chart.lines.map((l) => {
      const ys = l.points.map((p) => p.y);
      if (ys.length === 0) return [run(l.runIndex), '0', '—', '—', '—', '—'];
      return [
        run(l.runIndex),
        String(ys.length),
        `${x(l.points[0]!.x)} … ${x(l.points.at(-1)!.x)}`,
        value(minOf(ys)!),
        value(median(ys)),
        value(maxOf(ys)!),
      ];
    }),
  };
}
