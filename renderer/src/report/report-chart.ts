// A report chart: one chart model of the registry (electron/core/report/charts/) drawn as
// plain SVG, so it prints as vectors (no canvas, no screenshot) and needs no script: the
// static HTML file and the PDF show it exactly as the app does. Bars: each category its own
// horizontal bars, one per run, linear from zero so a ratio reads true, every bar carrying its
// value as text (151 seeks/s beside 10,524 still reads). Series: one line per run.
import { createElement as h, type ReactElement } from 'react';
import {
  axisPosition,
  formatAxisValue,
  type BarCategory,
  type BarChartModel,
  type ChartModel,
  type SeriesChartModel,
  SERIES_DASHES,
} from '../../../electron/core/report/charts/chart-model.ts';
import { chartTables } from '../charts/table-chart-view.ts';
import { logTicks, niceTicks, seriesXAxis } from '../view/axis-ticks.ts';
import { chooseScale, logDomain } from '../view/compare-view.ts';

/** Light-theme series colours (the report is always light), in run order. */
// Each ≥ 4.5:1 against the white run numbers of the report's swatches.
export const REPORT_COLORS = ['#2563eb', '#b45309', '#047857', '#7c3aed', '#dc2626', '#0e7490'];
const color = (runIndex: number) => REPORT_COLORS[runIndex % REPORT_COLORS.length];

const WIDTH = 640;
const ROW = 22;
const BAR = 14;
const LABEL_WIDTH = 210;
const VALUE_WIDTH = 150;
const TOP = 4;
const HEADING = 18;

export interface BarGeometry {
  runIndex: number;
  y: number;
  width: number;
}

/** Bar lengths of one category on a linear scale from zero, at least 1 unit when non-zero. */
export function barGeometry(category: BarCategory): { height: number; plotWidth: number; bars: BarGeometry[] } {
  const plotWidth = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const max = Math.max(0, ...category.bars.map((b) => b.value ?? 0));
  const bars = category.bars.map((bar, i) => ({
    runIndex: bar.runIndex,
    y: TOP + i * ROW,
    width: bar.value && max > 0 ? Math.max(1, (bar.value / max) * plotWidth) : 0,
  }));
  return { height: TOP * 2 + category.bars.length * ROW, plotWidth, bars };
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const betterText = (chart: ChartModel) =>
  chart.direction === 'higher' ? 'higher is better' : chart.direction === 'lower' ? 'lower is better' : '';

export function ReportChartView({ chart, labels }: { chart: ChartModel; labels: string[] }): ReactElement {
  const titleId = `chart-${chart.id.replace(/[^a-z0-9]+/gi, '-')}`;
  const better = betterText(chart);
  const scale = chart.shape === 'series' ? seriesScale(chart) : null;
  return h(
    'figure',
    {
      className: 'chart',
      'data-testid': 'report-chart',
      'data-chart-type': chart.type,
      'aria-labelledby': titleId,
      // A drawing scrolls sideways in a narrow window (report-css.ts): the keyboard can scroll it too.
      tabIndex: chart.shape === 'table' ? undefined : 0,
    },
    h(
      'figcaption',
      { id: titleId },
      chart.title,
      h('span', { className: 'muted' }, ` (${[chart.unitLabel, scale?.log ? scale.note : '', better].filter(Boolean).join(', ')})`),
    ),
    chart.shape === 'table'
      ? h('div', { className: 'chart-tables' }, ...chartTables(chart, 'figures chart-table'))
      : chart.shape === 'bars'
        ? h(BarsSvg, { chart, labels, titleId })
        : h(SeriesSvg, { chart, labels, titleId, log: scale?.log ?? false }),
    chart.shape === 'series' && chart.note ? h('p', { className: 'chart-note' }, chart.note) : null,
  );
}

function BarsSvg({ chart, labels, titleId }: { chart: BarChartModel; labels: string[]; titleId: string }): ReactElement {
  // A heading over each category when there are several (the chart's title names a lone one's group).
  const headed = chart.categories.length > 1;
  let y = 0;
  const groups = chart.categories.map((cat) => {
    const { height, bars } = barGeometry(cat);
    const top = y + (headed ? HEADING : 0);
    y = top + height;
    return h(
      'g',
      { key: cat.key, 'data-category': cat.title },
      headed ? h('text', { x: 0, y: top - 5, fontSize: 10, fontWeight: 'bold', fill: '#111827' }, shorten(cat.title, 90)) : null,
      ...cat.bars.map((bar, i) => {
        const g = bars[i]!;
        const barY = top + g.y;
        const textY = barY + BAR / 2 + 4;
        const value = bar.value === null ? bar.display : `${bar.display}${bar.ratioText && bar.runIndex > 0 ? `  ${bar.ratioText}` : ''}`;
        return h(
          'g',
          { key: bar.runIndex },
          h('text', { x: 0, y: textY, fontSize: 10, fill: '#374151' }, shorten(`#${bar.runIndex + 1} ${labels[bar.runIndex] ?? ''}`, 36)),
          h('rect', {
            x: LABEL_WIDTH,
            y: barY,
            width: g.width,
            height: BAR,
            fill: color(bar.runIndex),
            'data-testid': 'report-bar',
            'data-value': bar.value ?? undefined,
          }),
          h('text', { x: LABEL_WIDTH + g.width + 4, y: textY, fontSize: 10, fill: '#111827' }, value),
        );
      }),
    );
  });
  return h(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${y}`, width: '100%', role: 'img', 'aria-labelledby': titleId, xmlns: 'http://www.w3.org/2000/svg' },
    h('line', { x1: LABEL_WIDTH, x2: LABEL_WIDTH, y1: 0, y2: y, stroke: '#9ca3af', strokeWidth: 1 }),
    ...groups,
  );
}

const PLOT = { left: 64, right: 16, top: 10, height: 180 };

/**
 * The app's "auto" scale for a series: past a ×10 spread a linear axis draws the slow line flat
 * on zero (a sweep's 0.15 MB/s at 512 B beside 100 MB/s, a cache's 3 MB/s beside 48).
 */
const seriesScale = (chart: SeriesChartModel) =>
  chooseScale(
    chart.lines.flatMap((l) => l.points),
    ['y'],
    'auto',
  );

function SeriesSvg({
  chart,
  labels,
  titleId,
  log,
}: {
  chart: SeriesChartModel;
  labels: string[];
  titleId: string;
  log: boolean;
}): ReactElement {
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const positions = chart.lines.flatMap((l) => l.points.map((p) => axisPosition(chart.x.scale, p.x)));
  // The app's x axis (axis-ticks.ts): a model's span drawn exactly, else round steps from 0; a
  // model's own ticks (a sweep's 18 sizes) all kept, turned when there are many.
  const fitted = seriesXAxis(chart.x, positions, chart.x.ticks ? Number.MAX_SAFE_INTEGER : plotWidth, (pos) =>
    formatAxisValue(chart.x.format, chart.x.scale === 'log2' ? 2 ** pos : pos),
  );
  const [lo, hi] = fitted.domain;
  const span = hi > lo ? hi - lo : 1;
  const px = (x: number) => PLOT.left + ((axisPosition(chart.x.scale, x) - lo) / span) * plotWidth;
  const points = chart.lines.flatMap((l) => l.points);
  const yDomain: [number, number] = log ? logDomain(points, ['y']) : [0, niceTicks(Math.max(0, ...points.map((p) => p.y))).at(-1)!];
  const yTicks = log ? logTicks(...yDomain) : niceTicks(yDomain[1]);
  const [yLo, yHi] = log ? (yDomain.map(Math.log10) as [number, number]) : yDomain;
  const py = (y: number) =>
    PLOT.top + PLOT.height - (((log ? Math.log10(Math.max(y, yDomain[0])) : y) - yLo) / (yHi - yLo || 1)) * PLOT.height;
  const bottom = PLOT.top + PLOT.height;
  const xTicks = fitted.ticks.map((p) => (chart.x.scale === 'log2' ? 2 ** p : p));
  const rotate = xTicks.length > 8;
  // Text at 10 units at least: 10 CSS px where the drawing keeps its natural width (report-css.ts).
  const tickRoom = rotate ? 52 : 20;
  const legendY = bottom + tickRoom + 14;
  const height = legendY + Math.ceil(chart.lines.length / 2) * 14 + 4;
  return h(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${height}`, width: '100%', role: 'img', 'aria-labelledby': titleId, xmlns: 'http://www.w3.org/2000/svg' },
    ...yTicks.map((t) =>
      h(
        'g',
        { key: `y${t}` },
        h('line', { x1: PLOT.left, x2: WIDTH - PLOT.right, y1: py(t), y2: py(t), stroke: '#e5e7eb', strokeWidth: 1 }),
        h(
          'text',
          { x: PLOT.left - 4, y: py(t) + 3.5, fontSize: 10, fill: '#374151', textAnchor: 'end' },
          formatAxisValue(chart.valueFormat, t),
        ),
      ),
    ),
    h('line', { x1: PLOT.left, x2: WIDTH - PLOT.right, y1: bottom, y2: bottom, stroke: '#9ca3af', strokeWidth: 1 }),
    ...xTicks.map((t) => {
      const x = px(t);
      const text = formatAxisValue(chart.x.format, t);
      return rotate
        ? h(
            'text',
            {
              key: `x${t}`,
              x,
              y: bottom + 10,
              fontSize: 10,
              fill: '#374151',
              textAnchor: 'end',
              transform: `rotate(-40 ${x} ${bottom + 10})`,
            },
            text,
          )
        : h('text', { key: `x${t}`, x, y: bottom + 13, fontSize: 10, fill: '#374151', textAnchor: 'middle' }, text);
    }),
    h('text', { x: WIDTH - PLOT.right, y: bottom + tickRoom + 2, fontSize: 10, fill: '#6b7280', textAnchor: 'end' }, chart.x.label),
    ...chart.lines.map((line) =>
      h(
        'g',
        { key: line.runIndex },
        h('path', {
          d: line.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(''),
          fill: 'none',
          stroke: color(line.runIndex),
          strokeWidth: 1.5,
          // Told apart without colour too (a greyscale print): the app's dash per run.
          strokeDasharray: SERIES_DASHES[line.runIndex % SERIES_DASHES.length] || undefined,
          'data-testid': 'report-line',
          'data-run': line.runIndex,
        }),
        ...(chart.markers
          ? line.points.map((p) =>
              h('circle', {
                key: p.x,
                cx: px(p.x),
                cy: py(p.y),
                r: 2.5,
                fill: color(line.runIndex),
                'data-testid': 'report-point',
                'data-x': p.x,
                'data-value': p.y,
              }),
            )
          : []),
      ),
    ),
    ...chart.lines.map((line, i) => {
      const x = PLOT.left + (i % 2) * (plotWidth / 2);
      const y = legendY + Math.floor(i / 2) * 14;
      return h(
        'g',
        { key: `legend${line.runIndex}` },
        h('rect', { x, y: y - 8, width: 10, height: 10, fill: color(line.runIndex) }),
        h('text', { x: x + 14, y, fontSize: 10, fill: '#374151' }, shorten(`#${line.runIndex + 1} ${labels[line.runIndex] ?? ''}`, 50)),
      );
    }),
  );
}
