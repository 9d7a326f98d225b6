// PAGE 1 of an assessment's report (#39): what a person hands to someone. Three columns (before /
// after / after under dm-crypt, measured, forecast or the published story, each drawn as what it
// is), the headline tests (sequential read and write, random 4K at QD1, seeks), and the verdicts'
// sentences, every one rendered from analysis/verdicts.ts and nothing decided here. A figure that
// carries a trust flag is marked ⚑. Runs are named by the report's one numbering (#1 … as in its
// run cards); a published run outside the assessment is named by its label.
import { createElement as h, type ReactElement } from 'react';
import type { RunRecord } from '../model/results.ts';
import { HEADLINE_SLOTS, ignoredSentence, type AssessmentVerdicts, type SlotId, type VerdictFigure } from '../analysis/verdicts.ts';
import { wholeText } from './whole-text.ts';

export type FirstPageColumnKind = 'measured' | 'imported' | 'published' | 'forecast' | 'missing';

export interface FirstPageColumn {
  heading: string;
  /** "#2 Intel 320 SSD (published reference)", or what is missing. */
  run: string;
  kind: FirstPageColumnKind;
}

export interface FirstPageRow {
  slot: SlotId;
  title: string;
  cells: Array<VerdictFigure | null>;
  /** After against before, with the judgement: "×3.29 faster". */
  change: string | null;
}

export interface FirstPage {
  title: string;
  columns: [FirstPageColumn, FirstPageColumn, FirstPageColumn];
  rows: FirstPageRow[];
  /** Three to six sentences: speed, encryption (and the published story), discard, size. */
  sentences: Array<{ id: 'speed' | 'encryption' | 'published' | 'trim' | 'size'; text: string }>;
  /** What the ⚑ mark means, when any figure carries one. */
  flagNote: string | null;
  /** Steps whose stored run does not fit their role: left out, said here. */
  ignored: string[];
}

const KIND_WORD: Record<RunRecord['source'], FirstPageColumnKind> = { measured: 'measured', imported: 'imported', reference: 'published' };
const KIND_TEXT: Record<FirstPageColumnKind, string> = {
  measured: 'measured here',
  imported: 'imported',
  published: 'published reference',
  forecast: 'forecast (estimated)',
  missing: 'not known',
};

/** Page 1's model: the verdicts laid out, each run named by its tag in the report (`tagOf`: "#2", or null when not in it). */
export function firstPage(label: string, v: AssessmentVerdicts, tagOf: (runId: number | null | undefined) => string | null): FirstPage {
  const tagged = (id: number | null | undefined, text: string) => [tagOf(id), text].filter(Boolean).join(' ');
  const named = (run: RunRecord | undefined) => (run ? tagged(run.id, `${run.label} (${KIND_TEXT[KIND_WORD[run.source]]})`) : 'not chosen');
  const enc = v.encryption;
  const published = enc.basis === 'none' ? enc.published : null;
  const third: FirstPageColumn =
    enc.basis === 'measured'
      ? { heading: 'After, under dm-crypt', run: named(v.roles.encrypted), kind: 'measured' }
      : enc.basis === 'forecast'
        ? {
            heading: 'After, under dm-crypt: forecast',
            run: `estimated from this CPU's cipher ceiling: ${enc.ceilingText}`,
            kind: 'forecast',
          }
        : published
          ? {
              heading: 'Under dm-crypt: the published story',
              run: tagged(published.runId, `${published.label} (another machine, not this one's cost)`),
              kind: 'published',
            }
          : { heading: 'After, under dm-crypt', run: 'not measured, no cipher ceiling kept', kind: 'missing' };
  const column3 = enc.basis === 'none' ? (published?.column ?? {}) : enc.column;
  const rows: FirstPageRow[] = HEADLINE_SLOTS.flatMap((slot) => {
    const speed = v.speedUp.rows.find((r) => r.slot === slot.id);
    const crypt = column3[slot.id] ?? null;
    if (!speed && !crypt) return [];
    return [
      {
        slot: slot.id,
        title: slot.title,
        cells: [speed?.before ?? null, speed?.after ?? null, crypt],
        change: speed?.delta ? speed.delta.ratioText : null,
      },
    ];
  });
  const flagged = rows.flatMap((r) => r.cells).flatMap((c) => c?.flags ?? []);
  return {
    title: `Upgrade assessment: ${label}`,
    columns: [
      { heading: 'Before', run: named(v.roles.before), kind: v.roles.before ? KIND_WORD[v.roles.before.source] : 'missing' },
      { heading: 'After', run: named(v.roles.after), kind: v.roles.after ? KIND_WORD[v.roles.after.source] : 'missing' },
      third,
    ],
    rows,
    sentences: [
      { id: 'speed', text: v.speedUp.sentence },
      { id: 'encryption', text: enc.sentence },
      ...(enc.published ? [{ id: 'published' as const, text: enc.published.sentence }] : []),
      { id: 'trim', text: v.trim.sentence },
      { id: 'size', text: v.size.sentence },
    ],
    flagNote: flagged.length
      ? '⚑ marks a figure that carries a trust flag: it may be less than it claims; the notes and warnings section names each flag and why.'
      : null,
    ignored: v.ignored.map(ignoredSentence),
  };
}

function Cell({ cell, kind }: { cell: VerdictFigure | null; kind: FirstPageColumnKind }): ReactElement {
  if (!cell) return h('td', { className: 'muted' }, '—');
  // A no-break space: the mark stays with its figure, never alone on the cell's next line.
  const mark = cell.flags.length ? h('span', { className: 'flag', title: cell.flags.join(', ') }, '\u00a0⚑') : null;
  return h('td', { className: `value first-${kind}`, 'data-flags': cell.flags.join(' ') || undefined }, wholeText(cell.display), mark);
}

export function FirstPageView({ page }: { page: FirstPage }): ReactElement {
  return h(
    'section',
    { className: 'report-section first-page', 'aria-labelledby': 'first-page-h', 'data-testid': 'report-first-page' },
    h('h2', { id: 'first-page-h' }, 'The verdict'),
    h(
      'table',
      { className: 'figures first-page-table' },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          h('th', { scope: 'col' }, ''),
          ...page.columns.map((c, i) =>
            h('th', { scope: 'col', key: i, className: `first-${c.kind}` }, c.heading, h('span', { className: 'muted block' }, c.run)),
          ),
          h('th', { scope: 'col', className: 'change' }, 'Speed-up'),
        ),
      ),
      h(
        'tbody',
        null,
        ...page.rows.map((row) =>
          h(
            'tr',
            { key: row.slot },
            h('th', { scope: 'row' }, row.title),
            ...row.cells.map((cell, i) => h(Cell, { key: i, cell, kind: page.columns[i]!.kind })),
            h('td', null, row.change ?? '—'),
          ),
        ),
      ),
    ),
    page.flagNote ? h('p', { className: 'muted' }, page.flagNote) : null,
    h(
      'div',
      { className: 'verdicts' },
      ...page.sentences.map((s) =>
        h('p', { key: s.id, 'data-testid': `verdict-${s.id}`, className: `verdict-${s.id}` }, wholeText(s.text)),
      ),
    ),
    page.ignored.length ? h('ul', { className: 'warnings' }, ...page.ignored.map((t, i) => h('li', { key: i }, t))) : null,
  );
}

/** Page 1's styles (report-css.ts appends them): a forecast hatched and dashed, a published column purple, a flag amber. */
export const FIRST_PAGE_CSS = `
.report .first-page { break-after: page; }
.report .first-page-table th[scope='row'], .report .first-page-table th.change { overflow-wrap: normal; width: 24mm; }
.report .first-page-table th.change { width: 16mm; }
.report .first-page-table td.first-forecast, .report .first-page-table th.first-forecast { border: 1.5px dashed #6b7280; background: repeating-linear-gradient(135deg, #f3f4f6 0 2mm, #fff 2mm 4mm); font-style: italic; }
.report .first-page-table td.first-published, .report .first-page-table th.first-published { border-left: 2px solid #7c3aed; }
.report .first-page .flag { color: #b45309; font-weight: bold; }
.report .first-page .verdicts p { font-size: 10.5pt; margin: 0 0 2.5mm; }
`;
