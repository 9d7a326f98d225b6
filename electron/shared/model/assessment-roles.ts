// Which runs each field of an assessment takes (#39): the one table the CLI's `assess start/set`,
// the app's step pickers, the stored rows' check and the report read. A field holds a run only if
// the run's kind (run-kind.ts) fits the field's role; a stored field that no longer fits is
// reported by `roleProblem` and never used.
//
// Pure: the renderer bundles it.
import type { RunRecord } from './results.ts';
import type { RunSource } from './figure-terms.ts';
import { RUN_KIND_WORDS, runEncrypted, runKinds, type RunKind } from './run-kind.ts';
import type { AssessmentField } from './assessment.ts';

export interface Role {
  /** What the field is for, as the refusal says it: "the new disk (after)". */
  title: string;
  /** The kinds the field takes (any of them). */
  kinds: readonly RunKind[];
  /** The sources the field takes: the encryption cost must be this machine's own measurement. */
  sources: readonly RunSource[];
  /** The run must have been measured through dm-crypt (true), or must not have been (false); null: either. */
  encrypted: boolean | null;
  /** What the role takes, in words, for the refusal and the picker's heading. */
  takes: string;
}

const ANY_SOURCE: readonly RunSource[] = ['measured', 'imported', 'reference'];

export const ASSESSMENT_ROLES: Readonly<Record<AssessmentField, Role>> = {
  before: {
    title: 'the current disk (before)',
    kinds: ['disk'],
    sources: ANY_SOURCE,
    encrypted: null,
    takes: 'a disk measured by the rate tests (measured here, imported, or a published reference)',
  },
  after: {
    title: 'the new disk (after)',
    kinds: ['disk'],
    sources: ANY_SOURCE,
    encrypted: null,
    takes: 'a disk measured by the rate tests (measured here, imported, or a published reference)',
  },
  encrypted: {
    title: 'the new disk under dm-crypt',
    kinds: ['disk'],
    // A published encrypted run is another machine's story: shown beside, never this machine's cost.
    sources: ['measured'],
    encrypted: true,
    takes:
      "a run this machine measured through dm-crypt (diskdelta encryption); a reference's encrypted run is shown as the published story, not as this machine's cost",
  },
  discardOff: {
    title: 'the discard-cost run without discard',
    kinds: ['discard-cost'],
    sources: ANY_SOURCE,
    encrypted: null,
    takes: 'a discard-cost experiment (sudo diskdelta discard-cost DIR)',
  },
  discardOn: {
    title: 'the discard-cost run with discard',
    kinds: ['discard-cost'],
    sources: ANY_SOURCE,
    encrypted: null,
    takes: 'a discard-cost experiment (sudo diskdelta discard-cost DIR)',
  },
  workingSet: {
    title: 'the working set (how big an SSD)',
    kinds: ['working-set', 'access-recording'],
    sources: ANY_SOURCE,
    encrypted: null,
    takes: 'a working-set scan (diskdelta working-set DIR) or a file-access recording (diskdelta record DIR)',
  },
};

type RoleRun = Pick<RunRecord, 'results' | 'sourceMeta' | 'source' | 'target'>;

/**
 * Why `run` cannot hold `field`, in one sentence naming what it is and what the field takes;
 * null when it fits. The discard pair's own order (without, then with) is checked by the caller,
 * which sees both runs.
 */
export function roleProblem(field: AssessmentField, run: RoleRun): string | null {
  const role = ASSESSMENT_ROLES[field];
  const kinds = runKinds(run);
  const kind = kinds.find((k) => role.kinds.includes(k));
  if (!kind) return `it is ${RUN_KIND_WORDS[kinds[0]!].noun}; ${role.title} takes ${role.takes}`;
  if (!role.sources.includes(run.source))
    return `it is ${run.source === 'reference' ? 'a published reference' : 'an imported run'}, not measured on this machine; ${role.title} takes ${role.takes}`;
  if (role.encrypted !== null) {
    const encrypted = runEncrypted(run);
    if (encrypted !== role.encrypted)
      return `${encrypted === null ? 'nothing in it says it was measured through dm-crypt' : role.encrypted ? 'it was not measured through dm-crypt' : 'it was measured through dm-crypt'}; ${role.title} takes ${role.takes}`;
  }
  return null;
}

/** Whether `run` fits `field`. */
export function fitsRole(field: AssessmentField, run: RoleRun): boolean {
  return roleProblem(field, run) === null;
}
