// What every chart view draws around its drawing: a section named by its heading (the
// title, the unit, "lower is better" where it is, and why this axis), the box whose measured
// width the chart takes, and what follows the chart. One frame, so that the bar and the series
// views stay alike for tests (data-testid, data-chart-id, data-scale) and screen readers.
import { unbrokenLabel } from '../model/whole-tokens.ts';
import { createElement as h, type ReactNode, type RefObject } from 'react';
import type { ChartModel } from './chart-model.ts';
import { chartText } from './chart-text.ts';

/** Beside a chart's title: its unit, "lower is better" where lower is (higher is the rule), and why this axis. */
export function chartCaption(chart: ChartModel, scaleNote: string): string {
  return `(${chart.unitLabel}${chart.direction === 'lower' ? ', lower is better' : ''}, ${scaleNote})`;
}

export function chartFrame(
  frame: {
    chart: ChartModel;
    /** data-testid: the view's kind and the chart's type, e.g. `bars-throughput`. */
    testId: string;
    scale: { log: boolean; note: string };
    heading: 'h2' | 'h3';
    headingId: string;
    box: RefObject<HTMLDivElement | null>;
    /** The runs' labels, in run order: the text alternative's columns or rows. */
    labels: string[];
  },
  chart: ReactNode,
  ...after: ReactNode[]
) {
  const { chart: model, testId, scale, heading, headingId, box, labels } = frame;
  const text = chartText(model, labels);
  return h(
    'section',
    {
      'aria-labelledby': headingId,
      className: model.wide ? 'chart wide' : 'chart',
      'data-testid': testId,
      'data-chart-id': model.id,
      'data-scale': scale.log ? 'log' : 'linear',
    },
    h(heading, { id: headingId }, model.title, ' ', h('span', { className: 'muted' }, chartCaption(model, scale.note))),
    // The drawing is one named image; its figures follow as a table.
    h('div', { ref: box, role: 'img', 'aria-label': text.name }, chart),
    ...after,
    h(
      'details',
      { className: 'chart-figures' },
      h('summary', null, 'Figures as a table'),
      h(
        'div',
        { className: 'table-scroll' },
        // At a phone's width a row is a block of labelled lines (.stack-narrow): a column per run
        // scrolled sideways at 390 px. The explicit roles keep it a table whatever the display.
        h(
          'table',
          { className: 'stack-narrow', role: 'table', 'aria-label': `${model.title}: figures` },
          h(
            'thead',
            { role: 'rowgroup' },
            h('tr', { role: 'row' }, ...text.head.map((cell, i) => h('th', { key: i, scope: 'col', role: 'columnheader' }, cell))),
          ),
          h(
            'tbody',
            { role: 'rowgroup' },
            ...text.rows.map((row, r) =>
              h(
                'tr',
                { key: r, role: 'row' },
                ...row.map((cell, i) =>
                  i === 0
                    ? h('th', { key: i, scope: 'row', role: 'rowheader' }, cell)
                    : h(
                        'td',
                        { key: i, className: 'num', role: 'cell', 'data-label': text.head[i] ? unbrokenLabel(text.head[i]) : undefined },
                        cell,
                      ),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
