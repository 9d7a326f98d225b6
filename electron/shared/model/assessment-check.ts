// The one check of the runs given to an assessment's steps (#39): each run must fit its step's
// role (assessment-roles.ts) and the discard pair must be the experiment's run without discard,
// then its run with it. The library runs it inside updateAssessment, so `assess start/set` and
// the app's assessments.start/set (and anything else that sets a step) are refused alike, with
// the same words: what the step takes, and the library's runs that fit (or the command that
// makes one).
//
// Pure: the runs are read through the functions given.
import { ASSESSMENT_FIELDS, type Assessment, type AssessmentField } from './assessment.ts';
import {
  ASSESSMENT_ROLES,
  discardPairProblem,
  fittingRunsText,
  roleProblem,
  runFacts,
  summaryFitsRole,
  type RoleContext,
} from './assessment-roles.ts';
import type { RunRecord } from './results.ts';
import type { RunSummary } from './run-summary.ts';

type Steps = Partial<Record<AssessmentField, number | null>>;

/**
 * Why the steps cannot be set on `current`, one sentence a refused run, or null when all fit.
 * Only the steps given are checked (a stored step that no longer fits is said by
 * usableAssessment, not refused here); the discard pair is checked whenever either half is given.
 */
export function stepsRefusal(
  current: Assessment,
  steps: Steps,
  readRuns: (ids: number[]) => { runs: Array<RunRecord | null> },
  listRuns: () => RunSummary[],
): string | null {
  const merged: Assessment = { ...current };
  for (const field of ASSESSMENT_FIELDS) {
    const id = steps[field];
    if (id !== undefined) merged[field] = id;
  }
  const given = (Object.keys(steps) as AssessmentField[]).filter((f) => steps[f] !== undefined && steps[f] !== null);
  if (given.length === 0) return null;
  const ids = [...new Set([...given.map((f) => merged[f]!), ...(merged.after !== null ? [merged.after] : [])])];
  const { runs } = readRuns(ids);
  const records = new Map(ids.map((id, i) => [id, runs[i] ?? null]));
  const afterRun = merged.after === null ? null : records.get(merged.after);
  const context: RoleContext = { after: afterRun ? runFacts(afterRun) : null };

  let listed: RunSummary[] | null = null;
  const fitting = (field: AssessmentField) =>
    (listed ??= listRuns()).filter((s) => summaryFitsRole(field, s, context)).map((s) => ({ id: s.id, label: s.label }));

  const refusals: string[] = [];
  for (const field of given) {
    const id = merged[field]!;
    const run = records.get(id);
    const problem = run ? roleProblem(field, run, context) : 'it cannot be read from the library (diskdelta show says why)';
    if (problem)
      refusals.push(
        `run ${id}${run ? ` "${run.label}"` : ''} cannot be ${ASSESSMENT_ROLES[field].title}: ${problem}. ${fittingRunsText(field, fitting(field))}`,
      );
  }
  const pairGiven = steps.discardOff !== undefined || steps.discardOn !== undefined;
  if (pairGiven && refusals.length === 0 && merged.discardOff !== null && merged.discardOn !== null) {
    const [off, on] = [records.get(merged.discardOff), records.get(merged.discardOn)];
    const problem =
      off && on
        ? discardPairProblem({ id: merged.discardOff, sourceMeta: off.sourceMeta }, { id: merged.discardOn, sourceMeta: on.sourceMeta })
        : null;
    if (problem) refusals.push(`${problem}. ${fittingRunsText('discardOff', fitting('discardOff'))}`);
  }
  return refusals.length > 0 ? refusals.join('\n') : null;
}
