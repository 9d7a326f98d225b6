// Which runs each field of an assessment takes (#39): the one table the CLI's `assess start/set`,
// the app's step pickers, the stored rows' check and the report read. A field holds a run only if
// the run's kind (run-kind.ts) fits the field's role; a stored field that no longer fits is
// reported by `roleProblem` and never used.
//
// Pure: the renderer bundles it.
import type { RunRecord } from './results.ts';
import type { RunSource } from './figure-terms.ts';
import type { RunSummary } from './run-summary.ts';
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
  /** The command that makes a run that fits, for a refusal when the library holds none. */
  makes: string;
}

const ANY_SOURCE: readonly RunSource[] = ['measured', 'imported', 'reference'];

export const ASSESSMENT_ROLES: Readonly<Record<AssessmentField, Role>> = {
  before: {
    title: 'the current disk (before)',
    kinds: ['disk'],
    sources: ANY_SOURCE,
    encrypted: null,
    takes: 'a disk measured by the rate tests (measured here, imported, or a published reference)',
    makes: "diskdelta run --target DIR (or 'diskdelta import FILE', 'diskdelta import --reference')",
  },
  after: {
    title: 'the new disk (after)',
    kinds: ['disk'],
    sources: ANY_SOURCE,
    encrypted: null,
    takes: 'a disk measured by the rate tests (measured here, imported, or a published reference)',
    makes: "diskdelta run --target DIR (or 'diskdelta import FILE', 'diskdelta import --reference')",
  },
  encrypted: {
    title: 'the new disk under dm-crypt',
    kinds: ['disk'],
    // A published encrypted run is another machine's story: shown beside, never this machine's cost.
    sources: ['measured'],
    encrypted: true,
    takes:
      "a run this machine measured through dm-crypt (diskdelta encryption), or a reference's encrypted run beside the same publication's same disk as after (the published story)",
    makes: 'diskdelta encryption --target DIR',
  },
  discardOff: {
    title: 'the discard-cost run without discard',
    kinds: ['discard-cost'],
    sources: ANY_SOURCE,
    encrypted: null,
    takes: "a discard-cost experiment's run without discard (sudo diskdelta discard-cost DIR)",
    makes: 'sudo diskdelta discard-cost DIR',
  },
  discardOn: {
    title: 'the discard-cost run with discard',
    kinds: ['discard-cost'],
    sources: ANY_SOURCE,
    encrypted: null,
    takes: "a discard-cost experiment's run with discard (sudo diskdelta discard-cost DIR)",
    makes: 'sudo diskdelta discard-cost DIR',
  },
  workingSet: {
    title: 'the working set (how big an SSD)',
    kinds: ['working-set', 'access-recording'],
    sources: ANY_SOURCE,
    encrypted: null,
    takes: 'a working-set scan (diskdelta working-set DIR) or a file-access recording (diskdelta record DIR)',
    makes: 'diskdelta working-set DIR (or diskdelta record DIR)',
  },
};

export type RoleRun = Pick<RunRecord, 'results' | 'sourceMeta' | 'source' | 'target'>;

/** What the roles read of a run: its kinds, where it came from, whether it was measured under dm-crypt. */
export interface RunFacts {
  kinds: readonly RunKind[];
  source: RunSource;
  encrypted: boolean | null;
  /** For a reference, the publication it comes from (its sourceMeta "source"); null otherwise. */
  publication: string | null;
  /** The measured device's model, when the run names one. */
  device: string | null;
}

export function runFacts(run: RoleRun): RunFacts {
  return {
    kinds: runKinds(run),
    source: run.source,
    encrypted: runEncrypted(run),
    publication: run.source === 'reference' ? (run.sourceMeta.source ?? null) : null,
    device: run.target.device?.model ?? null,
  };
}

/** The facts the library's list keeps of a run (store/run-list-row.ts): its first kind only, no publication. */
export function summaryFacts(s: Pick<RunSummary, 'kind' | 'source' | 'encrypted'>): RunFacts {
  return { kinds: [s.kind], source: s.source, encrypted: s.encrypted, publication: null, device: null };
}

/** What a field's check may need of the assessment's other steps. */
export interface RoleContext {
  /** The new disk (after) the assessment holds or is being given. */
  after?: RunFacts | null;
}

const REFERENCE_ENCRYPTED = "a reference's encrypted run is another machine's story; it is shown beside, never as this machine's cost";

/**
 * Why a run with these facts cannot hold `field`, in one sentence naming what it is and what the
 * field takes; null when it fits. The encryption step takes a reference's encrypted run only as
 * the published story of the reference that is the new disk (after): same publication, same
 * drive (the 2011 laptop's SSD and that SSD under its dm-crypt), never a user's new disk beside
 * a 2011 laptop's cipher.
 */
export function factsProblem(field: AssessmentField, facts: RunFacts, context: RoleContext = {}): string | null {
  const role = ASSESSMENT_ROLES[field];
  const kind = facts.kinds.find((k) => role.kinds.includes(k));
  if (!kind) return `it is ${RUN_KIND_WORDS[facts.kinds[0] ?? 'unknown'].noun}; ${role.title} takes ${role.takes}`;
  if (role.encrypted !== null && facts.encrypted !== role.encrypted)
    return `${facts.encrypted === null ? 'nothing in it says it was measured through dm-crypt' : role.encrypted ? 'it was not measured through dm-crypt' : 'it was measured through dm-crypt'}; ${role.title} takes ${role.takes}`;
  const publishedStory =
    field === 'encrypted' &&
    facts.source === 'reference' &&
    facts.publication !== null &&
    context.after?.source === 'reference' &&
    context.after.publication === facts.publication &&
    facts.device !== null &&
    context.after.device === facts.device;
  if (!role.sources.includes(facts.source) && !publishedStory) {
    if (field === 'encrypted' && facts.source === 'reference')
      return `${REFERENCE_ENCRYPTED} (it stands here only as the published story, beside the same publication's same disk as after); ${role.title} takes ${role.takes}`;
    return `it is ${facts.source === 'reference' ? 'a published reference' : 'an imported run'}, not measured on this machine; ${role.title} takes ${role.takes}`;
  }
  return null;
}

/**
 * Why `run` cannot hold `field`, in one sentence naming what it is and what the field takes;
 * null when it fits. The discard pair's own order (without, then with) is checked by
 * discardPairProblem, which sees both runs.
 */
export function roleProblem(field: AssessmentField, run: RoleRun, context: RoleContext = {}): string | null {
  return factsProblem(field, runFacts(run), context);
}

/** Whether `run` fits `field`. */
export function fitsRole(field: AssessmentField, run: RoleRun, context: RoleContext = {}): boolean {
  return roleProblem(field, run, context) === null;
}

/** Whether a line of the library's list fits `field` (by its first kind: what the list keeps). */
export function summaryFitsRole(
  field: AssessmentField,
  s: Pick<RunSummary, 'kind' | 'source' | 'encrypted'>,
  context: RoleContext = {},
): boolean {
  return factsProblem(field, summaryFacts(s), context) === null;
}

type PairRun = { id: number; sourceMeta: Record<string, string> };

/**
 * Why two runs cannot be the discard pair: the first must be the experiment's run without the
 * discard mount option, the second its run with it (sourceMeta "mount option", as
 * bench/trim/discard-runs.ts and the 2013 references store it), and they must be two runs.
 */
export function discardPairProblem(off: PairRun, on: PairRun): string | null {
  if (off.id === on.id)
    return `--discard ${off.id},${on.id} names one run twice: the discard cost is the difference between two runs, the one without discard, then the one with it`;
  const without = off.sourceMeta['mount option'];
  const withIt = on.sourceMeta['mount option'];
  if (without !== 'no discard' || withIt !== 'discard')
    return `the discard pair is the run without discard, then the run with it: run ${off.id} is ${optionWords(without)} and run ${on.id} is ${optionWords(withIt)}`;
  return null;
}

function optionWords(option: string | undefined): string {
  return option === 'discard' ? 'the run with discard' : option === 'no discard' ? 'the run without discard' : 'no discard-cost run';
}

/** A line of the library's list as a refusal names it. */
export interface FittingRun {
  id: number;
  label: string;
}

/** How many fitting runs a refusal names before "and N more". */
export const FITTING_SHOWN = 8;

/** The runs that fit a field, for a refusal: at most FITTING_SHOWN, then how many more; none: the command that makes one. */
export function fittingRunsText(field: AssessmentField, fitting: readonly FittingRun[]): string {
  const role = ASSESSMENT_ROLES[field];
  if (fitting.length === 0) return `The library holds no run that fits ${role.title}: ${role.makes} makes one.`;
  const shown = fitting.slice(0, FITTING_SHOWN).map((r) => `${r.id} "${r.label}"`);
  const more = fitting.length - shown.length;
  return `Runs that fit ${role.title}: ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''}.`;
}
