// Plain-text rendering of a Comparison, for the CLI and text reports. One block per test and
// metric, one line per run: it stays readable with any number of runs, unlike a wide table.
import type { Comparison, CompareRow, Delta, SpreadVerdict } from '../shared/analysis/compare.ts';

const SPREAD_TEXT: Record<SpreadVerdict, string> = {
  yes: 'beyond spread',
  no: 'within spread: may be noise',
  unknown: 'spread unknown',
};

const DIRECTION_TEXT = { higher: 'higher is better', lower: 'lower is better', none: 'no better side' } as const;

function deltaText(d: Delta): string {
  if (d.notJudged) return `${d.ratioText}  ${d.percentText}  (${d.notJudged})`;
  return [d.ratioText, d.percentText, d.verdict ?? '', `(${SPREAD_TEXT[d.beyondSpread]})`].filter(Boolean).join('  ');
}

export function formatComparisonText(c: Comparison): string {
  const out: string[] = [];
  const tags = c.runs.map((_, i) => `#${i + 1}`);
  out.push(`Comparing ${c.runs.length} runs; ratios are to the baseline #1. Throughput in ${c.unitDescription}.`);
  const labelWidth = Math.max(...c.runs.map((r) => r.label.length));
  c.runs.forEach((run, i) => {
    const source = run.source === 'measured' ? 'measured' : `[${run.source}]`;
    const origin = run.source === 'measured' || run.engine.startsWith(run.sourceFormat) ? run.engine : `${run.sourceFormat}, ${run.engine}`;
    const id = run.id === null ? 'unsaved' : `run ${run.id}`;
    out.push(`  ${tags[i]}  ${run.label.padEnd(labelWidth)}  ${id}, ${source}, ${origin}, ${run.createdAt.slice(0, 10)}`);
  });

  // A test that only one run has cannot be compared: one line names them all, instead of a
  // block per metric saying "not in this run" (8 tests against 2 was ~25 such lines).
  const runsWith = (row: CompareRow) => row.cells.filter((cell) => cell.inRun).length;
  const alone = new Map<number, string[]>();
  let lastTest = '';
  for (const row of c.rows) {
    if (runsWith(row) < 2) {
      const only = row.cells.findIndex((cell) => cell.inRun);
      const titles = alone.get(only) ?? [];
      const title = row.test === 'extras' ? row.metricLabel : row.testTitle;
      if (!titles.includes(title)) titles.push(title);
      alone.set(only, titles);
      continue;
    }
    if (row.test !== lastTest) {
      out.push('', row.test === 'extras' ? row.testTitle : `${row.testTitle}  (${row.test})`);
      lastTest = row.test;
    }
    out.push(`  ${row.metricLabel}, ${DIRECTION_TEXT[row.direction]}`);
    // A flagged figure carries its flags and interval in its display (figure-text.ts).
    const shown = row.cells.map((cell) => cell.display);
    const width = Math.max(...shown.map((text) => text.length));
    row.cells.forEach((cell, i) => {
      const parts = [`    ${tags[i]}  ${shown[i]!.padEnd(width)}`];
      if (i === 0) parts.push('baseline');
      else if (cell.vsBaseline) parts.push(deltaText(cell.vsBaseline));
      else parts.push('no ratio');
      out.push(parts.join('  ').trimEnd());
    });
  }
  if (lastTest === '') out.push('', 'These runs have no test in common.');
  if (alone.size > 0) {
    out.push('', 'Not compared (in one run only):');
    for (const [i, titles] of [...alone].sort(([a], [b]) => a - b)) out.push(`  ${tags[i]} only: ${titles.join(', ')}`);
  }
  if (c.notes.length > 0) {
    out.push('', 'Notes:');
    for (const note of c.notes) out.push(`  - ${note}`);
  }
  return `${out.join('\n')}\n`;
}
