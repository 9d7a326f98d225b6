// A working-set run's tables: bytes read or written (and written alone) within each window, and
// the largest folders. Shared by the report (report-view.ts) and the app's Working set page;
// createElement, not JSX, so that Node renders the report's copy too.
import { createElement as h, type ReactElement } from 'react';
import { formatDiskSize, VERDICT_DAYS, type WorkingSetSummary } from '../analysis/working-set.ts';
import { counted } from '../model/display.ts';

export function WorkingSetTables({ summary, caption }: { summary: WorkingSetSummary; caption: string }): ReactElement {
  const reads = summary.readsSeen ? 'read or written' : 'written (reads not seen)';
  return h(
    'div',
    { className: 'working-set-tables', 'data-testid': 'working-set-tables' },
    h(
      'table',
      { className: 'working-set-windows' },
      h('caption', null, `${caption}: ${counted(summary.files, 'file')}, ${formatDiskSize(summary.totalBytes)} allocated`),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, 'within'),
          h('th', { scope: 'col' }, reads),
          h('th', { scope: 'col' }, 'written'),
          h('th', { scope: 'col' }, 'untouched'),
        ),
      ),
      h(
        'tbody',
        null,
        ...summary.windows.map((w) =>
          h(
            'tr',
            { key: w.days },
            h('th', { scope: 'row' }, `${w.days} ${w.days === 1 ? 'day' : 'days'}`),
            h('td', { className: 'num' }, formatDiskSize(w.touchedBytes)),
            h('td', { className: 'num' }, formatDiskSize(w.writtenBytes)),
            h('td', { className: 'num' }, formatDiskSize(summary.totalBytes - w.touchedBytes)),
          ),
        ),
      ),
    ),
    summary.folders.length > 0
      ? h(
          'table',
          { className: 'working-set-folders' },
          h('caption', null, 'Largest folders'),
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              h('th', { scope: 'col' }, 'folder'),
              h('th', { scope: 'col' }, 'size'),
              h('th', { scope: 'col' }, `touched within ${VERDICT_DAYS}\u00a0days`),
            ),
          ),
          h(
            'tbody',
            null,
            ...summary.folders.map((f) =>
              h(
                'tr',
                { key: f.name },
                h('th', { scope: 'row' }, f.name),
                h('td', { className: 'num' }, formatDiskSize(f.bytes)),
                h('td', { className: 'num' }, formatDiskSize(f.recentBytes)),
              ),
            ),
          ),
        )
      : null,
  );
}
