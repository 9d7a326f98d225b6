// The report view: one ReportDocument (electron/shared/report/report-model.ts) as a printable
// page. Written with createElement rather than JSX so that Node (which strips types but does
// not compile JSX) renders the very same components to the static HTML file and the PDF;
// the app's report route renders them live. Light theme and print rules: report-css.ts.
// Nothing here is hidden until scrolled to (no content-visibility): every section prints.
import { unbrokenLabel } from '../model/whole-tokens.ts';
import { createElement as h, Fragment, type ReactElement, type ReactNode } from 'react';
import type { Delta } from '../analysis/compare.ts';
import type { ReportDocument, ReportRun } from './report-model.ts';
import { ReportChartView, Swatch } from './report-chart.ts';
import { counted } from '../model/display.ts';
import { wholeText } from './whole-text.ts';
import { WorkingSetTables } from './working-set-view.ts';
import { CandidatesTableView, JudgedTableView } from './candidates-view.ts';
import { EncryptionSection } from './report-encryption.ts';
import { FirstPageView, FIRST_PAGE_CSS } from './first-page.ts';

const SPREAD_TEXT = { yes: 'beyond spread', no: 'within spread', unknown: 'spread unknown' } as const;
const DIRECTION_TEXT = { higher: 'higher is better', lower: 'lower is better', none: 'no better side' } as const;

/** "2026-11-30 06:49 UTC": the same in every time zone, so the PDF says what the file says. */
export function reportDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function Section({ id, title, children }: { id: string; title: string; children?: ReactNode }): ReactElement {
  return h(
    'section',
    { className: `report-section section-${id}`, 'aria-labelledby': `${id}-h`, 'data-testid': `report-${id}` },
    h('h2', { id: `${id}-h` }, title),
    children,
  );
}

function SourceBadge({ run }: { run: ReportRun }): ReactElement | null {
  if (run.source === 'measured') return null;
  return h('span', { className: `badge ${run.source}` }, run.source === 'reference' ? 'reference' : 'imported');
}

function RunCard({ run, index }: { run: ReportRun; index: number }): ReactElement {
  const rows: Array<[string, ReactNode]> = [
    ['Source', run.sourceText],
    ['Date', reportDate(run.createdAt)],
    ['Measured', run.disk],
  ];
  if (run.machine) {
    rows.push(
      ['CPU', run.machine.cpu],
      ['AES in hardware', run.machine.aes],
      ['Memory', run.machine.memory],
      ['Kernel', run.machine.kernel],
    );
  } else {
    rows.push(['Machine', run.machineNote ?? 'not recorded with this run']);
  }
  if (run.temperature) rows.push(['Drive temperature', run.temperature]);
  if (run.fill) rows.push(['Fill level', run.fill]);
  if (run.driveWrote) rows.push(['Drive wrote', run.driveWrote]);
  if (run.notes) rows.push(['Notes', run.notes]);
  return h(
    'article',
    { className: 'run-card', 'data-testid': 'report-run' },
    h('h3', null, h(Swatch, { index }), ' ', run.label, ' ', h(SourceBadge, { run })),
    h('dl', null, ...rows.flatMap(([k, v]) => [h('dt', { key: `${k}-t` }, k), h('dd', { key: `${k}-d` }, v)])),
    run.stack.length > 0
      ? h(
          Fragment,
          null,
          h('p', { className: 'stack-title' }, 'Storage stack, from the file down to the disk:'),
          h('ol', { className: 'stack' }, ...run.stack.map((line, i) => h('li', { key: i }, line))),
        )
      : null,
  );
}

/**
 * "×13.0 better vs #1", and the spread only where it changes the reading ("within spread", "spread
 * unknown"): the percentage said the ratio twice and a cell took five lines (#39: 6 pages).
 */
function DeltaText({ delta, against }: { delta: Delta; against: string }): ReactElement {
  const spread = delta.notJudged ?? (delta.beyondSpread === 'yes' ? null : SPREAD_TEXT[delta.beyondSpread]);
  return h(
    'span',
    // Everything as text, nothing only in a tooltip (a printed page has none): the percent too.
    { className: `delta ${delta.verdict ?? 'none'} spread-${delta.beyondSpread}` },
    h('strong', null, delta.ratioText),
    ` (${delta.percentText})`,
    delta.verdict ? ` ${delta.verdict}` : '',
    ` vs ${against}`,
    spread ? `, ${spread}` : '',
  );
}

/** The figures of the disks, workloads and sustained writes: a column per such run, nothing for the others (report-sections.ts). */
function FullTable({ doc }: { doc: ReportDocument }): ReactElement | null {
  const { comparison, runIndexes } = doc.figures;
  if (!comparison) return null;
  const tag = (i: number) => `#${(runIndexes[i] ?? i) + 1}`;
  return h(
    'table',
    { className: 'figures', 'data-testid': 'report-table', role: 'table' },
    h(
      'thead',
      { role: 'rowgroup' },
      h(
        'tr',
        { role: 'row' },
        h('th', { scope: 'col', role: 'columnheader' }, 'Test · figure'),
        ...comparison.runs.map((run, i) =>
          h('th', { scope: 'col', role: 'columnheader', key: i }, h(Swatch, { index: runIndexes[i] ?? i }), ' ', wholeText(run.label)),
        ),
      ),
    ),
    h(
      'tbody',
      { role: 'rowgroup' },
      ...comparison.rows.map((row, r) =>
        h(
          'tr',
          { role: 'row', key: `${row.test}:${row.metric}` },
          h(
            'th',
            { scope: 'row', role: 'rowheader' },
            wholeText(row.testTitle),
            h('br'),
            h('span', { className: 'muted' }, wholeText(`${row.metricLabel}, ${DIRECTION_TEXT[row.direction]}`)),
          ),
          ...row.cells.map((cell, i) =>
            h(
              'td',
              { key: i, role: 'cell', 'data-label': unbrokenLabel(`${tag(i)} ${comparison.runs[i]?.label ?? ''}`) },
              h('span', { className: 'value' }, wholeText(cell.display)),
              i === 0 ? h('span', { className: 'muted' }, ' · baseline') : null,
              doc.spreads[r]?.[i] ? h('span', { className: 'muted' }, ` · ${doc.spreads[r][i]}`) : null,
              cell.vsBaseline ? h('span', { className: 'block' }, h(DeltaText, { delta: cell.vsBaseline, against: tag(0) })) : null,
            ),
          ),
        ),
      ),
    ),
  );
}

function Warnings({ doc }: { doc: ReportDocument }): ReactElement {
  const notes = doc.comparison.notes;
  return h(
    Section,
    { id: 'warnings', title: 'Notes and warnings' },
    notes.length > 0 ? h('ul', { className: 'notes' }, ...notes.map((n, i) => h('li', { key: i }, n))) : null,
    doc.warnings.length === 0
      ? h('p', { className: 'muted' }, 'No run carries a warning.')
      : h(
          'ul',
          { className: 'warnings' },
          ...doc.warnings.map((w, i) =>
            h(
              'li',
              { key: i },
              ...w.runIndexes.map((r) => h(Fragment, { key: r }, h(Swatch, { index: r }), ' ')),
              w.where ? h('span', { className: 'muted' }, `${w.where}: `) : null,
              w.message,
              h('span', { className: 'code' }, ` (${w.code})`),
            ),
          ),
        ),
  );
}

function Method({ doc }: { doc: ReportDocument }): ReactElement {
  return h(
    Section,
    { id: 'method', title: 'How it was measured' },
    h(
      'p',
      null,
      `Throughput in ${doc.comparison.unitDescription}; IOPS are I/O operations per second; latency in ns, µs or ms as labelled. ` +
        'Ratios are to run #1, the baseline (×2.00 = twice its figure); no run is compared with its neighbour in the order picked. ' +
        'A difference is "beyond spread" when the ratio exceeds twice the runs’ combined spread measured as factors (on a log scale), ' +
        'so one stalled run cannot turn a large gain into noise.',
    ),
    // Two cards a row, as the runs' cards above: one column gave a page of its own to five short cards.
    h(
      'div',
      { className: 'run-cards' },
      ...doc.runs.map((run, i) =>
        h(
          'div',
          { className: 'method-run', key: i },
          h('h3', null, h(Swatch, { index: i }), ' ', run.label, ' ', h(SourceBadge, { run })),
          h(
            'dl',
            null,
            h('dt', null, 'Engine'),
            h('dd', null, run.method.engine),
            h('dt', null, 'I/O'),
            h('dd', null, run.method.io),
            h('dt', null, 'Size'),
            h('dd', null, run.method.sizes),
            h('dt', null, 'Timing'),
            h('dd', null, run.method.timing),
            h('dt', null, 'Date'),
            h('dd', null, reportDate(run.method.measuredAt)),
          ),
          h(TestsRan, { runs: doc.runs, index: i }),
        ),
      ),
    ),
  );
}

const testsKey = (run: ReportRun) => JSON.stringify(run.method.tests);

/** A run's tests as one paragraph; "as #1" when an earlier run ran the very same (three disks of `full` printed 30 lines). */
function TestsRan({ runs, index }: { runs: ReportRun[]; index: number }): ReactElement {
  const run = runs[index]!;
  const same = runs.slice(0, index).findIndex((r) => testsKey(r) === testsKey(run));
  if (same >= 0) return h('p', { className: 'tests' }, `Tests: the same as ${runs[same]!.tag}, run the same way.`);
  return h(
    'p',
    { className: 'tests' },
    'Tests: ',
    ...run.method.tests.flatMap((t, k) => [
      k > 0 ? '; ' : null,
      h('code', { key: t.id }, t.id),
      ` ${t.params}${t.ran ? ` (${t.ran})` : ''}`,
    ]),
  );
}

export function ReportView({ doc }: { doc: ReportDocument }): ReactElement {
  const labels = doc.comparison.runs.map((r) => r.label);
  return h(
    'article',
    { className: 'report', 'data-testid': 'report' },
    h(
      'header',
      { className: 'report-header' },
      h('h1', null, doc.title),
      h(
        'p',
        { className: 'run-line' },
        // Each run by its role (Before, After, …), never chained with arrows as if a discard-cost
        // experiment or a scan were a stage of the upgrade (#39).
        ...doc.runs.flatMap((run, i) => [
          i > 0 ? ' · ' : null,
          run.role ? h('strong', { key: `r${i}` }, `${run.role}: `) : null,
          h(Swatch, { index: i, key: `s${i}` }),
          ` ${run.label}`,
        ]),
      ),
      h(
        'p',
        { className: 'muted' },
        `Generated ${reportDate(doc.generatedAt)} by DiskDelta${doc.appVersion ? ` ${doc.appVersion}` : ''} · ${counted(doc.runs.length, 'run')}` +
          (doc.runs.length > 1 ? ` · each run against #1 ${doc.runs[0]!.label}, the baseline` : ''),
      ),
    ),
    doc.firstPage ? h(Fragment, null, h('style', null, FIRST_PAGE_CSS), h(FirstPageView, { page: doc.firstPage })) : null,
    doc.summary.length > 0
      ? h(
          Section,
          { id: 'summary', title: 'Summary' },
          ...doc.summary.map((s) =>
            h(
              'div',
              { key: s.id, className: `summary-${s.id}`, 'data-testid': `summary-${s.id}` },
              h('h3', null, s.title),
              ...s.paragraphs.map((p, i) => h('p', { key: i }, p)),
            ),
          ),
        )
      : null,
    doc.encryption ? h(EncryptionSection, { story: doc.encryption }) : null,
    h(
      Section,
      { id: 'runs', title: 'Runs, disks and machines' },
      h('div', { className: 'run-cards' }, ...doc.runs.map((run, i) => h(RunCard, { run, index: i, key: i }))),
    ),
    doc.trimCharts.length > 0
      ? h(
          Section,
          { id: 'trim', title: 'TRIM: the cost of online discard' },
          ...doc.trimCharts.map((chart) => h(ReportChartView, { chart, labels, key: chart.id })),
        )
      : null,
    doc.workingSets.length > 0 || doc.sizeCharts.length > 0
      ? h(
          Section,
          { id: 'working-set', title: 'Working set' },
          ...doc.sizeCharts.map((chart) => h(ReportChartView, { chart, labels, key: chart.id })),
          ...doc.workingSets.map((w) =>
            h(WorkingSetTables, {
              key: w.runIndex,
              summary: w.summary,
              caption: `#${w.runIndex + 1} ${doc.runs[w.runIndex]?.label ?? ''}`,
            }),
          ),
        )
      : null,
    doc.candidates || doc.candidatesLeftOut.length > 0
      ? h(
          Section,
          { id: 'candidates', title: 'Candidates: before you buy' },
          doc.candidatesJudged ? h('h3', null, 'Forecast beside the measurement of the new disk') : null,
          doc.candidatesJudged ? h(JudgedTableView, { table: doc.candidatesJudged }) : null,
          doc.candidates ? h(CandidatesTableView, { table: doc.candidates }) : null,
          ...doc.candidatesLeftOut.map((line) =>
            h('p', { className: 'fc-note', 'data-testid': 'candidate-left-out', key: line }, `${line}.`),
          ),
        )
      : null,
    doc.charts.length > 0
      ? h(
          Section,
          { id: 'charts', title: 'Charts' },
          h('div', { className: 'charts' }, ...doc.charts.map((chart) => h(ReportChartView, { chart, labels, key: chart.id }))),
        )
      : null,
    doc.figures.comparison ? h(Section, { id: 'figures', title: 'Every figure' }, h(FullTable, { doc })) : null,
    h(Warnings, { doc }),
    h(Method, { doc }),
  );
}
