// The runs an assessment's verdicts and report are made of, read from the library once for the
// CLI (`assess show`, `assess report`) and the API (the app's report): its runs in report order,
// then the published encrypted run that goes with a reference's after run (the 2011 story's
// third run), which page 1 shows beside as the published story, never as this machine's cost.
import { assessmentRunIds, type Assessment } from '../../shared/model/assessment.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { publishedPartner } from '../../shared/analysis/verdicts.ts';
import type { Library } from '../store/library.ts';

type RunReader = Pick<Library, 'getRuns' | 'listRuns'>;

/** The assessment's run ids in report order, the published partner last when there is one. */
export function assessmentReportIds(library: RunReader, a: Assessment): number[] {
  const ids = assessmentRunIds(a);
  const after = a.after === null ? null : (library.getRuns([a.after])[0] ?? null);
  if (!after || after.source !== 'reference') return ids;
  const refIds = library.listRuns({ source: 'reference' }).map((r) => r.id);
  const refs = library.getRuns(refIds).filter((r): r is RunRecord => r !== null);
  const partner = publishedPartner(after, refs);
  return partner?.id !== undefined && !ids.includes(partner.id) ? [...ids, partner.id] : ids;
}

/** The records of assessmentReportIds (a deleted run is left out: its step is empty again). */
export function assessmentReportRuns(library: RunReader, a: Assessment): RunRecord[] {
  return library.getRuns(assessmentReportIds(library, a)).filter((r): r is RunRecord => r !== null);
}
