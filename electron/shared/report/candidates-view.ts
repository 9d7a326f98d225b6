// The candidates side by side with the disk in use today: the table of candidates-model.ts,
// drawn by the app's Candidates page and the report's Candidates section alike; createElement,
// not JSX, so that Node renders the report's copy too. Every forecast cell is estimated (the
// caption says it, the cells are italic), a capped rate says "bus" or "cipher" beside the drive's
// own figure, a workload time its range and gain, a wide range "rough".
import { createElement as h, type ReactElement, type ReactNode } from 'react';
import type { CandidatesTable, ForecastCell } from './candidates-model.ts';
import type { JudgedTable } from './judged-model.ts';

function cell(c: ForecastCell, key: number): ReactElement {
  // The range (or the drive's own figure) and what flags it, on one small line under the forecast.
  const tags = [
    c.limit === 'bus' ? 'bus limit' : c.limit === 'cipher' ? 'cipher limit' : null,
    c.rough ? 'rough' : null,
    c.overrun ? 'cache overrun' : null,
  ].filter((t): t is string => t !== null);
  return h(
    'td',
    { key, className: 'num estimated' },
    h('span', { className: 'fc-main' }, c.text),
    c.gain ? h('span', { className: 'fc-gain' }, ` ${c.gain}`) : null,
    c.detail || tags.length
      ? h(
          'span',
          { className: 'fc-detail' },
          c.detail ?? '',
          ...tags.map((t) => h('span', { key: t, className: 'fc-tag' }, c.detail || t !== tags[0] ? ` · ${t}` : t)),
        )
      : null,
  );
}

/** A sentence per candidate, or one across them all when they all say the same (nothing judged yet, say). */
function sentenceCells(cells: string[]): ReactNode[] {
  if (cells.length > 1 && cells.every((c) => c === cells[0]))
    return [h('td', { key: 'all', className: 'fc-sentence estimated', colSpan: cells.length }, `All: ${cells[0]}`)];
  return cells.map((text, i) => h('td', { key: i, className: 'fc-sentence estimated' }, text));
}

function section(title: string, span: number): ReactElement {
  return h('tr', { className: 'fc-section' }, h('th', { scope: 'colgroup', colSpan: span }, title));
}

export function CandidatesTableView({ table }: { table: CandidatesTable }): ReactElement {
  const span = table.candidates.length + 2;
  return h(
    'div',
    { className: 'candidates-forecast', 'data-testid': 'candidates-forecast' },
    h(
      'div',
      // Scrolls sideways inside its own box on a narrow window, reachable by keyboard (as common.tsx TableScroll).
      { className: 'table-scroll', role: 'region', 'aria-label': 'Candidates side by side', tabIndex: 0 },
      h(
        'table',
        { className: 'candidates-table' },
        // In the caption, not a paragraph above: a table kept whole on its page keeps what it is of with it.
        h(
          'caption',
          null,
          h('span', { className: 'fc-machine' }, `Forecast for ${table.today}. This machine: ${table.machine}.`),
          h(
            'span',
            { className: 'fc-estimated' },
            'Estimated for your work: a model over your measurements, never measured on the candidates.',
          ),
        ),
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
          table.noWorkloads === null
            ? section('Your workloads: forecast, its range, the gain over today', span)
            : h('tr', { className: 'fc-section' }, h('td', { colSpan: span }, table.noWorkloads)),
          ...table.workloads.map((w) =>
            h(
              'tr',
              { key: w.workload },
              h('th', { scope: 'row' }, w.workload),
              h('td', { className: 'num' }, w.today),
              ...w.cells.map(cell),
            ),
          ),
          table.replay === null
            ? null
            : section(
                "A recorded day replayed: seconds per recorded day (today's estimated from its measured rates), its range, the gain",
                span,
              ),
          table.replay === null
            ? null
            : h(
                'tr',
                { key: 'replay', 'data-testid': 'forecast-replay-row' },
                h('th', { scope: 'row' }, table.replay.what),
                cell(table.replay.today, -1),
                ...table.replay.cells.map(cell),
              ),
          section('Your write volume and data', span),
          ...table.verdicts.map((v) =>
            h('tr', { key: v.what }, h('th', { scope: 'row' }, v.what), h('td', null, '–'), ...sentenceCells(v.cells)),
          ),
        ),
      ),
    ),
    table.roughNote ? h('p', { className: 'fc-note' }, table.roughNote) : null,
    // What was replayed (or why nothing was), then its assumptions as a list.
    h(
      'div',
      { className: 'fc-replay', 'data-testid': 'forecast-replay' },
      h('p', null, table.replayLines[0]),
      table.replayLines.length > 1 ? h('ul', null, ...table.replayLines.slice(1).map((line, i) => h('li', { key: i }, line))) : null,
    ),
    h(
      'ol',
      { className: 'fc-reasons' },
      ...table.candidates.map((c, i) =>
        h(
          'li',
          { key: i },
          h('strong', null, c.name),
          ': ',
          h('span', { className: 'fc-origin' }, c.origin),
          table.reasons[i]!.length ? h('ul', null, ...table.reasons[i]!.map((r, j) => h('li', { key: j }, r))) : null,
        ),
      ),
    ),
    h('p', { className: 'fc-accuracy', 'data-testid': 'forecast-accuracy' }, table.accuracy),
  );
}

/** Gains over the current disk: the new disk's measured once, each candidate's forecast beside it (judged-model.ts). */
export function JudgedTableView({ table }: { table: JudgedTable }): ReactElement {
  if (table.rows.length === 0) return h('p', { className: 'muted' }, 'No figure both the forecast and the two runs carry.');
  return h(
    'div',
    { className: 'judged-forecast' },
    h(
      'div',
      { className: 'table-scroll' },
      h(
        'table',
        { className: 'judged-candidates', 'data-testid': 'candidates-judged' },
        h('caption', { className: 'sr-only' }, "Gains over the current disk: measured on the new disk, and each candidate's forecast"),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            h('th', { scope: 'col' }, 'gain over the current disk'),
            h('th', { scope: 'col' }, 'measured (new disk)'),
            ...table.candidates.map((c) => h('th', { key: c, scope: 'col' }, `forecast: ${c}`)),
          ),
        ),
        h(
          'tbody',
          null,
          ...table.rows.map((r) =>
            h(
              'tr',
              { key: r.key },
              h('th', { scope: 'row' }, r.figure),
              h('td', { className: 'num' }, r.measured),
              ...r.forecasts.map((f, i) => h('td', { key: i, className: 'num estimated' }, f ?? '—')),
            ),
          ),
        ),
      ),
    ),
    h('p', { className: 'hint' }, table.note),
    table.noisyNote ? h('p', { className: 'hint' }, table.noisyNote) : null,
    table.roughNote ? h('p', { className: 'hint' }, `${table.roughNote}.`) : null,
    table.unmeasured.length
      ? h(
          'ul',
          { className: 'hint', 'data-testid': 'candidates-judged-unmeasured' },
          ...table.unmeasured.map((u) => h('li', { key: u }, u)),
        )
      : null,
  );
}
