// The app's view of a table chart model (shared/charts/chart-model.ts): one HTML table per
// group, the columns the model names, each cell's basis as its title, notes below. The report
// prints the same element (report-chart.ts), so the app and the report read alike. It names no
// chart type.
import { createElement as h, useId, type ReactElement } from 'react';
import type { TableChartModel } from './chart-model.ts';
import { chartCaption } from './chart-frame.ts';

/** The tables of one model, as plain elements: shared by the app's view and the printed report. */
export function chartTables(chart: TableChartModel, className: string): ReactElement[] {
  return chart.groups.map((group) =>
    h(
      'div',
      { key: group.key, className: 'chart-table-group', 'data-group': group.title },
      h(
        'table',
        { className },
        h('caption', null, group.title),
        h('thead', null, h('tr', null, ...chart.columns.map((c) => h('th', { key: c, scope: 'col' }, c)))),
        h(
          'tbody',
          null,
          ...group.rows.map((row) =>
            h(
              'tr',
              { key: row.key, 'data-row': row.title, ...(row.emphasis ? { className: 'emphasis' } : {}) },
              h('th', { scope: 'row' }, row.title),
              ...row.cells.map((cell, i) => h('td', { key: i, ...(cell.basis ? { title: cell.basis } : {}) }, cell.display)),
            ),
          ),
        ),
      ),
      group.notes.length ? h('ul', { className: 'notes' }, ...group.notes.map((n, i) => h('li', { key: i }, n))) : null,
    ),
  );
}

export function TableChartView({ chart, heading = 'h2' }: { chart: TableChartModel; heading?: 'h2' | 'h3' }): ReactElement {
  const headingId = useId();
  return h(
    'section',
    {
      'aria-labelledby': headingId,
      className: chart.wide ? 'chart wide' : 'chart',
      'data-testid': `table-${chart.type}`,
      'data-chart-id': chart.id,
    },
    h(
      heading,
      { id: headingId },
      chart.title,
      ' ',
      h('span', { className: 'muted' }, chartCaption(chart, chart.captionNote ?? 'a table: the published shape')),
    ),
    ...chartTables(chart, 'chart-table'),
  );
}
