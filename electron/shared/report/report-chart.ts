// A report chart: one chart model of the registry (electron/shared/charts/) in a figure,
// drawn by the app's own drawing (charts/chart-svg.ts) at the paper's width on the app's
// 'auto' axis rule (charts/chart-scale.ts), so the static HTML file and the PDF show what
// Compare shows: the same SVG, as vectors, with no script. Its colours are the report's light
// CSS variables (report-css.ts). Run names are HTML around the drawing (a legend that wraps
// on paper), never SVG text that cannot.
import { createElement as h, type ReactElement } from 'react';
import type { ChartModel } from '../charts/chart-model.ts';
import { chartText } from '../charts/chart-text.ts';
import { chartScale } from '../charts/chart-scale.ts';
import { ChartSvg, type DrawnChart } from '../charts/chart-svg.ts';
import { chartTables } from '../charts/table-chart-view.ts';
import { REPORT_COLORS } from './report-css.ts';

/** The width a report draws its charts at: the paper's text width scales it (report-css.ts). */
export const REPORT_CHART_WIDTH = 640;

const betterText = (chart: ChartModel) =>
  chart.direction === 'higher' ? 'higher is better' : chart.direction === 'lower' ? 'lower is better' : '';

export function Swatch({ index }: { index: number }): ReactElement {
  return h('span', { className: 'swatch', style: { background: REPORT_COLORS[index % REPORT_COLORS.length] } }, `#${index + 1}`);
}

/** The runs a chart draws something of, in order: its legend names those alone (a sweep beside a sustained write). */
function drawnRuns(chart: DrawnChart): number[] {
  const runs =
    chart.shape === 'bars'
      ? chart.categories.flatMap((c) => c.bars.filter((b) => b.value !== null).map((b) => b.runIndex))
      : chart.lines.filter((l) => l.points.length > 0).map((l) => l.runIndex);
  return [...new Set(runs)].sort((a, b) => a - b);
}

export function ReportChartView({ chart, labels }: { chart: ChartModel; labels: string[] }): ReactElement {
  const titleId = `chart-${chart.id.replace(/[^a-z0-9]+/gi, '-')}`;
  const scale = chart.shape === 'table' ? null : chartScale(chart, 'auto');
  return h(
    'figure',
    {
      className: 'chart',
      'data-testid': 'report-chart',
      'data-chart-type': chart.type,
      'data-chart-id': chart.id,
      ...(scale ? { 'data-scale': scale.log ? 'log' : 'linear' } : {}),
      'aria-labelledby': titleId,
    },
    h(
      'figcaption',
      { id: titleId },
      chart.title,
      h(
        'span',
        { className: 'muted' },
        ` (${[chart.unitLabel, scale?.log ? scale.note : '', betterText(chart)].filter(Boolean).join(', ')})`,
      ),
    ),
    chart.shape === 'table'
      ? h('div', { className: 'chart-tables' }, ...chartTables(chart, 'figures chart-table'))
      : [
          h(
            'ol',
            { key: 'legend', className: 'chart-legend' },
            ...drawnRuns(chart).map((i) => h('li', { key: i }, h(Swatch, { index: i }), ' ', labels[i] ?? '')),
          ),
          // A drawing scrolls sideways in a narrow window (report-css.ts): the keyboard can scroll it too.
          h(
            'div',
            { key: 'drawing', className: 'chart-drawing', role: 'img', 'aria-label': chartText(chart, labels).name, tabIndex: 0 },
            h(ChartSvg, { chart, labels, width: REPORT_CHART_WIDTH, log: scale!.log }),
          ),
        ],
    chart.shape === 'series' && chart.note ? h('p', { className: 'chart-note' }, chart.note) : null,
  );
}
