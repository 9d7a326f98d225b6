// A stored assessment as it may be used (#39): the kinds rules are newer than the rows of older
// libraries, and a row may have been edited outside DiskDelta, so a step may hold a run that no
// longer fits its role (a working-set scan as the new disk, a reference's encrypted run beside
// this machine's disk, a discard pair the wrong way round) or that cannot be read. Such a step
// is said as such and never used: its field is null in the assessment given back, with the
// problem in words. `assess show`, `assess list`, the app and the report's verdicts read an
// assessment only through here.
//
// Pure: the renderer bundles it.
import type { Assessment, AssessmentCheck, AssessmentField } from './assessment.ts';
import { ASSESSMENT_FIELDS } from './assessment-fields.ts';
import { ASSESSMENT_ROLES, discardPairProblem, roleProblem, runFacts, type RoleRun } from './assessment-roles.ts';

export interface UsableAssessment extends AssessmentCheck {
  /** The assessment with every field whose run is not used set to null. */
  assessment: Assessment;
}

/**
 * `recordsById`: the runs of the assessment's fields, by id. null: the library has no readable
 * run of that id (deleted behind the foreign key's back, or unreadable): the field is not used.
 * Absent (undefined): not known yet (the app loads records one by one): the field is kept as is.
 */
export function usableAssessment(a: Assessment, recordsById: ReadonlyMap<number, RoleRun | null>): UsableAssessment {
  const problems: Partial<Record<AssessmentField, string>> = {};
  const usable: Assessment = { ...a };
  const drop = (field: AssessmentField, problem: string) => {
    problems[field] = problem;
    usable[field] = null;
  };
  // The after run first: the encryption step's published story is checked against it.
  const order: AssessmentField[] = ['after', ...ASSESSMENT_FIELDS.filter((f) => f !== 'after')];
  for (const field of order) {
    const id = a[field];
    if (id === null || !recordsById.has(id)) continue;
    const run = recordsById.get(id);
    if (!run) {
      drop(field, `run ${id} of ${ASSESSMENT_ROLES[field].title} cannot be read from the library, so it is not used`);
      continue;
    }
    const after = usable.after === null ? null : recordsById.get(usable.after);
    const problem = roleProblem(field, run, { after: after ? runFacts(after) : null });
    if (problem) drop(field, `run ${id} is not used as ${ASSESSMENT_ROLES[field].title}: ${problem}`);
  }
  if (usable.discardOff !== null && usable.discardOn !== null) {
    const [off, on] = [recordsById.get(usable.discardOff), recordsById.get(usable.discardOn)];
    const problem =
      off && on
        ? discardPairProblem({ id: usable.discardOff, sourceMeta: off.sourceMeta }, { id: usable.discardOn, sourceMeta: on.sourceMeta })
        : null;
    if (problem) {
      const said = `runs ${usable.discardOff} and ${usable.discardOn} are not used as the discard pair: ${problem}`;
      drop('discardOff', said);
      drop('discardOn', said);
    }
  }
  const encrypted = usable.encrypted === null ? undefined : recordsById.get(usable.encrypted);
  return { assessment: usable, problems, encryptedIsReference: encrypted?.source === 'reference' };
}
