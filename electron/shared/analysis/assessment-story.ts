// The first thing an assessment's report says: the whole story in a few sentences, step by step
// (before, after, encryption, TRIM), each measured, picked, or said to be missing, so that a
// reader of page one knows what was compared and what was not. The figures come from the one
// comparison (compare.ts) and the discard table, as everywhere else.
import type { Assessment } from '../model/assessment.ts';
import type { RunRecord } from '../model/results.ts';
import { measuredDeviceText } from '../model/run-text.ts';
import type { Comparison } from './compare.ts';
import { discardTable } from './discard-table.ts';
import { summaryOfResult, workingSetVerdict, WORKING_SET_TEST } from './working-set.ts';
import type { SummarySection } from './summary.ts';

const SOURCE_WORDS = { measured: 'measured here', imported: 'imported', reference: 'published reference figures' } as const;

function runText(records: RunRecord[], id: number | null): string | null {
  const run = id === null ? undefined : records.find((r) => r.id === id);
  if (!run) return null;
  // A published run's device may be named "unknown": say nothing rather than "on unknown".
  const device = measuredDeviceText(run.target)?.replace(/^unknown$/, '') || null;
  return `run ${id} "${run.label}"${device ? ` on ${device}` : ''} (${SOURCE_WORDS[run.source]}, ${run.createdAt.slice(0, 10)})`;
}

/** The headline figures of after against before: the rows of the primary metrics of tests both runs have. */
function headline(comparison: Comparison, afterIndex: number): string[] {
  return comparison.rows
    .filter(
      (row) => (row.kind === 'throughput' || row.kind === 'iops') && row.cells[0]?.value != null && row.cells[afterIndex]?.value != null,
    )
    .slice(0, 4)
    .map((row) => {
      const d = row.cells[afterIndex]!.vsBaseline;
      return `${row.testTitle}: ${row.cells[0]!.display} → ${row.cells[afterIndex]!.display}${d ? ` (${d.ratioText})` : ''}`;
    });
}

export function assessmentStory(a: Assessment, records: RunRecord[], comparison: Comparison): SummarySection {
  const before = runText(records, a.before);
  const after = runText(records, a.after);
  const paragraphs: string[] = [
    `Before: ${before ?? 'not chosen yet: measure the current disk and add it to the assessment'}.`,
    `After: ${after ?? 'not chosen yet: measure the new disk after the swap, or pick an imported or reference run'}.`,
  ];
  const afterIndex = records.findIndex((r) => r.id === a.after);
  if (before && afterIndex > 0) {
    const lines = headline(comparison, afterIndex);
    if (lines.length)
      paragraphs.push(`The new disk against the old: ${lines.join('; ')}. Ratios and their spreads are in the figures below.`);
  }
  const encrypted = runText(records, a.encrypted);
  paragraphs.push(
    encrypted
      ? `Encryption: measured under dm-crypt, ${encrypted}; its figures are the third column.`
      : "Encryption: not measured in this assessment. diskdelta encryption measures it on the new disk; without that, only a forecast from this CPU's cipher ceilings (estimated) can say what dm-crypt would cost.",
  );
  const pair = discardTable(records.filter((r) => r.id === a.discardOff || r.id === a.discardOn))[0];
  paragraphs.push(
    pair && pair.rows.length === 2
      ? `TRIM: online discard costs ${pair.cost.delete.display} per tree delete + sync here (${pair.rows[0]!.delete.display} without, ${pair.rows[1]!.delete.display} with)${pair.fstrim ? `; a fstrim afterwards took ${pair.fstrim.seconds.display}` : ''}. The table below sets it beside the seed's.`
      : 'TRIM: the discard cost was not measured in this assessment (sudo diskdelta discard-cost DIR on the new disk measures it).',
  );
  paragraphs.push(workingSetParagraph(a, records));
  return { id: 'assessment', title: `The assessment: ${a.label}`, paragraphs };
}

/** How big the new disk must be: the scan's verdict said against the after run's disk size, when that is known. */
function workingSetParagraph(a: Assessment, records: RunRecord[]): string {
  const scan = records.find((r) => r.id === a.workingSet);
  const result = scan?.results.find((r) => r.test === WORKING_SET_TEST);
  const summary = result ? summaryOfResult(result) : null;
  if (!scan || !summary)
    return 'How big an SSD: no working-set scan in this assessment (diskdelta working-set DIR, or the Working set page, measures it).';
  const size = records.find((r) => r.id === a.after)?.target.device?.sizeBytes ?? undefined;
  return `How big an SSD (${runText(records, a.workingSet)}): ${workingSetVerdict(summary, size ?? undefined)}`;
}
