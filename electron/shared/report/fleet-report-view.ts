// The fleet report view: one FleetReportDocument (electron/shared/report/fleet-report-model.ts)
// as a printable page, with report-view.ts's styles (report-css.ts) and chart drawer
// (report-chart.ts). createElement, not JSX: Node renders the same component to the HTML file
// and the PDF, the app's Fleet page renders it live.
import { createElement as h, type ReactElement, type ReactNode } from 'react';
import { FLEET_CHART_LEGEND, type FleetReportDocument } from './fleet-report-model.ts';
import { ReportChartView } from './report-chart.ts';
import { reportDate } from './report-view.ts';

function Section({ id, title, children }: { id: string; title: string; children?: ReactNode }): ReactElement {
  return h(
    'section',
    { className: `report-section section-${id}`, 'aria-labelledby': `fleet-${id}-h`, 'data-testid': `fleet-report-${id}` },
    h('h2', { id: `fleet-${id}-h` }, title),
    children,
  );
}

const table = (caption: string, head: string[], rows: ReactNode[][], className = 'figures') =>
  h(
    'table',
    { className },
    h('caption', { className: 'muted', style: { textAlign: 'left' } }, caption),
    h('thead', null, h('tr', null, ...head.map((t, i) => h('th', { key: i, scope: 'col' }, t)))),
    h(
      'tbody',
      null,
      ...rows.map((cells, r) =>
        h('tr', { key: r }, ...cells.map((c, i) => (i === 0 ? h('th', { key: i, scope: 'row' }, c) : h('td', { key: i }, c)))),
      ),
    ),
  );

export function FleetReportView({ doc }: { doc: FleetReportDocument }): ReactElement {
  return h(
    'article',
    { className: 'report fleet-report', 'data-testid': 'fleet-report' },
    h(
      'header',
      { className: 'report-header' },
      h('h1', null, doc.title),
      h('p', { className: 'muted' }, `Generated ${reportDate(doc.generatedAt)} by DiskDelta${doc.appVersion ? ` ${doc.appVersion}` : ''}`),
    ),
    h(
      Section,
      { id: 'summary', title: 'Summary' },
      h('p', { 'data-testid': 'fleet-summary' }, doc.summary),
      h('p', { className: 'flagged', 'data-testid': 'fleet-spread-note' }, doc.spreadNote),
      doc.outliers.length > 0
        ? h(
            'div',
            null,
            h('h3', null, `Outliers (${doc.outliers.length})`),
            h('ul', { className: 'notes' }, ...doc.outliers.map((o, i) => h('li', { key: i }, o))),
          )
        : h('p', null, 'No host lies outside the fleet’s fences on any figure.'),
    ),
    h(
      Section,
      { id: 'fleet', title: 'The fleet' },
      table(
        'Across the hosts that have each figure',
        ['figure', 'hosts', '10th percentile', 'median', '90th percentile'],
        doc.stats.map((s) => [s.figure, String(s.hosts), s.p10, s.median, s.p90]),
      ),
      h(
        'div',
        { className: 'charts' },
        ...doc.charts.map((chart) => h(ReportChartView, { chart, labels: [...FLEET_CHART_LEGEND], key: chart.id })),
      ),
    ),
    h(
      Section,
      { id: 'hosts', title: 'Every host' },
      table(
        'One row per host: its newest run',
        ['host', 'device', 'disk (from the figures)', ...doc.columns, 'outlier', 'verdict'],
        doc.hosts.map((r) => [r.host, r.device, r.disk, ...r.figures, r.outliers || '—', r.verdict]),
      ),
      doc.superseded.length > 0
        ? h('p', { className: 'muted' }, `Measured more than once (the newest run is used): ${doc.superseded.join(', ')}`)
        : null,
    ),
  );
}
