// Where a run's figures came from, in words, for Compare's notes and the report's run list. A
// DiskDelta export brought into another library is an import (formats/index.ts), but its figures
// are DiskDelta's own: "imported from another tool's results file" said the opposite of the truth.
import type { RunRecord } from './results.ts';

type Provenance = Pick<RunRecord, 'source' | 'sourceFormat' | 'sourceMeta'>;

/** The format an imported DiskDelta export's run first came from (its own measurement: null). */
function exportedFrom(run: Provenance): string | null {
  const before = run.sourceMeta['diskdelta.source'];
  const format = run.sourceMeta['diskdelta.sourceFormat'];
  return before === 'imported' && format && format !== 'diskdelta' ? format : null;
}

/** True for a run DiskDelta measured, here or in the library an export came from. */
export function measuredByDiskDelta(run: Provenance): boolean {
  if (run.source === 'measured') return true;
  return run.source === 'imported' && run.sourceFormat === 'diskdelta' && run.sourceMeta['diskdelta.source'] === 'measured';
}

/** "measured by DiskDelta", "measured by DiskDelta, imported from its export", "imported from a fio results file", … */
export function provenanceText(run: Provenance): string {
  if (run.source === 'reference') return 'reference: published figures shipped with DiskDelta, not measured on this machine';
  if (run.source === 'measured') return 'measured by DiskDelta';
  if (run.sourceFormat !== 'diskdelta') return `imported from a ${run.sourceFormat} results file`;
  if (measuredByDiskDelta(run)) return 'measured by DiskDelta, imported from a DiskDelta export';
  const first = exportedFrom(run);
  return first ? `imported from a ${first} results file, by way of a DiskDelta export` : 'imported from a DiskDelta export';
}
