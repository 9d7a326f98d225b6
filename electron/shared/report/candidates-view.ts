// The candidates side by side with the disk in use today: the table of candidates-model.ts,
// drawn by the app's Candidates page and the report's Candidates section alike; createElement,
// not JSX, so that Node renders the report's copy too. Every forecast cell is estimated (the
// caption says it, the cells are italic), a capped rate says "bus" or "cipher" beside the drive's
// own figure, a workload time its range and gain, a wide range "rough".
import { createElement as h, type ReactElement, type ReactNode } from 'react';
import type { CandidatesTable, ForecastCell } from './candidates-model.ts';

function cell(c: ForecastCell, key: number): ReactElement {
  const tags: ReactNode[] = [];
  if (c.limit) tags.push(h('span', { key: 'limit', className: `fc-tag fc-${c.limit}` }, c.limit === 'bus' ? 'bus limit' : 'cipher limit'));
  if (c.rough) tags.push(h('span', { key: 'rough', className: 'fc-tag fc-rough' }, 'rough'));
  if (c.overrun) tags.push(h('span', { key: 'overrun', className: 'fc-tag fc-overrun' }, 'cache overrun'));
  return h(
    'td',
    { key, className: 'num estimated' },
    h('span', { className: 'fc-main' }, c.text),
    c.gain ? h('span', { className: 'fc-gain' }, ` ${c.gain}`) : null,
    c.detail ? h('span', { className: 'fc-detail' }, c.detail) : null,
    ...tags,
  );
}

function section(title: string, span: number): ReactElement {
  return h('tr', { className: 'fc-section' }, h('th', { scope: 'colgroup', colSpan: span }, title));
}

export function CandidatesTableView({ table, headingLevel = 'h3' }: { table: CandidatesTable; headingLevel?: 'h2' | 'h3' }): ReactElement {
  const span = table.candidates.length + 2;
  return h(
    'div',
    { className: 'candidates-forecast', 'data-testid': 'candidates-forecast' },
    h('p', { className: 'fc-machine' }, `Forecast for ${table.today}. This machine: ${table.machine}.`),
    h(
      'div',
      { className: 'table-scroll' },
      h(
        'table',
        { className: 'candidates-table' },
        h('caption', null, 'Estimated on this machine, for your work: a model over your measurements, never measured on the candidates'),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, 'figure'),
            h('th', { scope: 'col' }, 'today (measured)'),
            ...table.candidates.map((c, i) => h('th', { key: i, scope: 'col' }, `${i + 1}. ${c.name}`)),
          ),
        ),
        h(
          'tbody',
          null,
          section('Rates here, MB/s (4K figures as MB/s)', span),
          ...table.rates.map((r) =>
            h('tr', { key: r.figure }, h('th', { scope: 'row' }, r.figure), h('td', { className: 'num' }, r.today), ...r.cells.map(cell)),
          ),
          table.workloads.length
            ? section('Your workloads: forecast, its range, the gain over today', span)
            : h(
                'tr',
                { className: 'fc-section' },
                h('td', { colSpan: span }, 'Your workloads: none measured on this disk in the library (diskdelta run --preset workloads).'),
              ),
          ...table.workloads.map((w) =>
            h(
              'tr',
              { key: w.workload },
              h('th', { scope: 'row' }, w.workload),
              h('td', { className: 'num' }, w.today),
              ...w.cells.map(cell),
            ),
          ),
          section('Your write volume and data', span),
          ...table.verdicts.map((v) =>
            h(
              'tr',
              { key: v.what },
              h('th', { scope: 'row' }, v.what),
              h('td', null, '–'),
              ...v.cells.map((text, i) => h('td', { key: i, className: 'fc-sentence estimated' }, text)),
            ),
          ),
        ),
      ),
    ),
    table.roughNote ? h('p', { className: 'fc-note' }, table.roughNote) : null,
    h(
      'ol',
      { className: 'fc-reasons' },
      ...table.candidates.map((c, i) =>
        h(
          'li',
          { key: i },
          h(headingLevel, null, c.name),
          h('p', { className: 'fc-origin' }, c.origin),
          table.reasons[i]!.length ? h('ul', null, ...table.reasons[i]!.map((r, j) => h('li', { key: j }, r))) : null,
        ),
      ),
    ),
    h('p', { className: 'fc-accuracy', 'data-testid': 'forecast-accuracy' }, table.accuracy),
  );
}
