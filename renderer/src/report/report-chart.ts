// A report chart: one figure of every run as horizontal bars, drawn as plain SVG so it prints
// as vectors (no canvas, no screenshot) and needs no script: the static HTML file and the PDF
// show it exactly as the app does. Every bar carries its value as text, so a bar too short to
// see (151 seeks/s beside 10,524) still reads.
import { createElement as h, type ReactElement } from 'react';
import type { ReportChart } from '../../../electron/core/report/report-model.ts';

/** Light-theme series colours (the report is always light), in run order. */
export const REPORT_COLORS = ['#2563eb', '#d97706', '#059669', '#7c3aed', '#dc2626', '#0891b2'];

const WIDTH = 640;
const ROW = 22;
const BAR = 14;
const LABEL_WIDTH = 210;
const VALUE_WIDTH = 150;
const TOP = 4;

export interface BarGeometry {
  runIndex: number;
  y: number;
  width: number;
}

/** Bar lengths on a linear scale from zero (a ratio reads true), at least 1 unit when non-zero. */
export function barGeometry(chart: ReportChart): { height: number; plotWidth: number; bars: BarGeometry[] } {
  const plotWidth = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const max = Math.max(0, ...chart.bars.map((b) => b.value ?? 0));
  const bars = chart.bars.map((bar, i) => ({
    runIndex: bar.runIndex,
    y: TOP + i * ROW,
    width: bar.value && max > 0 ? Math.max(1, (bar.value / max) * plotWidth) : 0,
  }));
  return { height: TOP * 2 + chart.bars.length * ROW, plotWidth, bars };
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function ReportChartView({ chart, labels }: { chart: ReportChart; labels: string[] }): ReactElement {
  const { height, bars } = barGeometry(chart);
  const titleId = `chart-${chart.id.replace(/[^a-z0-9]+/gi, '-')}`;
  const better = chart.direction === 'higher' ? 'higher is better' : chart.direction === 'lower' ? 'lower is better' : '';
  return h(
    'figure',
    { className: 'chart', 'data-testid': 'report-chart', 'aria-labelledby': titleId },
    h('figcaption', { id: titleId }, chart.title, h('span', { className: 'muted' }, ` (${chart.unitLabel}${better ? `, ${better}` : ''})`)),
    h(
      'svg',
      { viewBox: `0 0 ${WIDTH} ${height}`, width: '100%', role: 'img', 'aria-labelledby': titleId, xmlns: 'http://www.w3.org/2000/svg' },
      h('line', { x1: LABEL_WIDTH, x2: LABEL_WIDTH, y1: 0, y2: height, stroke: '#9ca3af', strokeWidth: 1 }),
      ...chart.bars.map((bar, i) => {
        const g = bars[i]!;
        const textY = g.y + BAR / 2 + 4;
        const value = bar.value === null ? bar.display : `${bar.display}${bar.ratioText && bar.runIndex > 0 ? `  ${bar.ratioText}` : ''}`;
        return h(
          'g',
          { key: bar.runIndex },
          h('text', { x: 0, y: textY, fontSize: 10, fill: '#374151' }, shorten(`#${bar.runIndex + 1} ${labels[bar.runIndex] ?? ''}`, 36)),
          h('rect', {
            x: LABEL_WIDTH,
            y: g.y,
            width: g.width,
            height: BAR,
            fill: REPORT_COLORS[bar.runIndex % REPORT_COLORS.length],
            'data-testid': 'report-bar',
            'data-value': bar.value ?? undefined,
          }),
          h('text', { x: LABEL_WIDTH + g.width + 4, y: textY, fontSize: 10, fill: '#111827' }, value),
        );
      }),
    ),
  );
}
