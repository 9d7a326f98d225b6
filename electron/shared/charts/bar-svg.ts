// A bar chart model (shared/charts/chart-model.ts) drawn as plain SVG at a given width:
// one bar per run in each category, numbered, labelled with its value and its ratio to #1, on
// the axis chart-scale.ts chose. The app's Compare and Fleet pages and the printed report draw
// this same element (issue 37: the report had its own drawing, linear where Compare was log).
// No hooks and no DOM: react-dom/server renders it for the HTML report and the PDF. Colours are
// CSS variables (styles.css for the app's light and dark themes, report-css.ts for paper).
// It names no chart type: the model says it all. There is no legend inside: the numbered,
// coloured list of runs beside the charts is the legend, and each bar carries its run's number.
import { createElement as h, type ReactElement, type ReactNode } from 'react';
import { formatAxisValue, type BarChartModel } from './chart-model.ts';
import { barRows } from './compare-view.ts';
import { layoutBars, type ColumnsLayout, type PlacedBar, type RowsLayout } from './bar-layout.ts';
import { BarLabel } from './bar-parts.ts';
import { SERIES_COLORS } from './colors.ts';

export function BarsSvg({
  chart,
  labels,
  width,
  log,
}: {
  chart: BarChartModel;
  labels: string[];
  width: number;
  log: boolean;
}): ReactElement {
  const layout = layoutBars(barRows(chart), labels.length, width, log);
  return h(
    'svg',
    {
      width: layout.width,
      height: layout.height,
      viewBox: `0 0 ${layout.width} ${layout.height}`,
      className: 'bar-chart',
      'data-layout': layout.orientation,
    },
    ...(layout.orientation === 'columns' ? columnsParts(chart, layout) : rowsParts(layout)),
    ...layout.bars.map((bar) => barRect(chart, bar, labels)),
  );
}

/** A bar says what it shows (tests and screen readers find it by these) and its figure on hover. */
function barRect(chart: BarChartModel, bar: PlacedBar, labels: string[]): ReactElement {
  const category = chart.categories[bar.category]!;
  const model = category.bars.find((b) => b.runIndex === bar.run);
  const ratio = model?.ratioText ? ` (${model.ratioText})` : '';
  return h(
    'rect',
    {
      key: `b${bar.category}-${bar.run}`,
      x: bar.x,
      y: bar.y,
      width: Math.max(0, bar.width),
      height: Math.max(0, bar.height),
      fill: SERIES_COLORS[bar.run],
      'data-testid': 'bar',
      'data-group': chart.type,
      'data-run': bar.run,
      'data-test': category.test,
      'data-title': category.title,
      'data-value': bar.value,
    },
    h('title', null, `#${bar.run + 1} ${labels[bar.run] ?? ''} · ${category.title}: ${model?.display ?? bar.value}${ratio}`),
  );
}

const runNumber = (bar: PlacedBar, x: number, y: number, anchor: 'middle' | 'start') =>
  h(
    'text',
    {
      key: `n${bar.category}-${bar.run}`,
      x,
      y,
      // 10 px, the least a printed chart's text may be (e2e/chart-text.spec.ts).
      fontSize: 10,
      fill: 'var(--muted)',
      textAnchor: anchor,
      'data-testid': 'bar-run',
      'data-run': bar.run,
    },
    `#${bar.run + 1}`,
  );

function columnsParts(chart: BarChartModel, layout: ColumnsLayout): ReactNode[] {
  const { plot } = layout;
  return [
    ...layout.valueTicks.map((t) =>
      h(
        'g',
        { key: `t${t.value}` },
        h('line', { x1: plot.left, x2: plot.right, y1: t.at, y2: t.at, stroke: 'var(--grid)', strokeDasharray: '3 3' }),
        h(
          'text',
          { x: plot.left - 6, y: t.at + 4, fontSize: 11, fill: 'var(--muted)', textAnchor: 'end', 'data-testid': 'value-tick' },
          formatAxisValue(chart.valueFormat, t.value),
        ),
      ),
    ),
    h('line', { key: 'y-axis', x1: plot.left, x2: plot.left, y1: plot.top, y2: plot.bottom, stroke: 'var(--muted)' }),
    h('line', { key: 'x-axis', x1: plot.left, x2: plot.right, y1: plot.bottom, y2: plot.bottom, stroke: 'var(--muted)' }),
    ...layout.bars.map((bar) => runNumber(bar, bar.x + bar.width / 2, plot.bottom + 10, 'middle')),
    ...layout.bars.map((bar) =>
      bar.label
        ? h(BarLabel, { key: `l${bar.category}-${bar.run}`, label: bar.label, run: bar.run, x: bar.x, y: bar.y, width: bar.width })
        : null,
    ),
    ...layout.titles.map((title, i) =>
      h(
        'text',
        {
          key: `c${i}`,
          x: title.x,
          y: plot.bottom + 16,
          fontSize: 11,
          fill: 'var(--muted)',
          textAnchor: 'middle',
          'data-testid': 'axis-tick',
        },
        ...title.lines.map((line, j) => h('tspan', { key: j, x: title.x, dy: j === 0 ? '0.71em' : '1.2em' }, line)),
      ),
    ),
  ];
}

function rowsParts(layout: RowsLayout): ReactNode[] {
  const labelText = (bar: PlacedBar) => (bar.label ? `${bar.label.value}${bar.label.ratio ? ` ${bar.label.ratio}` : ''}` : '');
  return [
    h('line', { key: 'axis', x1: layout.plot.left, x2: layout.plot.left, y1: 0, y2: layout.height, stroke: 'var(--muted)' }),
    ...layout.titles.map((title, i) =>
      h(
        'text',
        { key: `c${i}`, x: 0, y: title.y, fontSize: 11, fontWeight: 600, fill: 'var(--text)', 'data-testid': 'category-title' },
        ...title.lines.map((line, j) => h('tspan', { key: j, x: 0, dy: j === 0 ? 0 : '1.2em' }, line)),
      ),
    ),
    ...layout.bars.map((bar) => runNumber(bar, 0, bar.y + 10, 'start')),
    ...layout.bars.map((bar) =>
      h(
        'text',
        {
          key: `l${bar.category}-${bar.run}`,
          x: bar.x + bar.width + 4,
          y: bar.y + 10,
          fontSize: 10,
          fill: 'var(--text)',
          'data-testid': 'bar-label',
          'data-run': bar.run,
        },
        labelText(bar),
      ),
    ),
  ];
}
