// An upgrade assessment: one story across days (before, the hardware swap, after), kept in the
// library (table `assessments`, migrations 9 and 14) so that its second step can come after a reboot
// with the new disk in. It holds run ids only; the runs stay ordinary runs of the library.
// Pure: the CLI, the app and the report read the steps from here.
import type { z } from 'zod';
import type { assessmentSchema, emptiedStepSchema, storedCandidateSchema, unreadableAssessmentSchema } from './assessment-schema.ts';
import { ASSESSMENT_FIELDS } from './assessment-fields.ts';

export type Assessment = z.infer<typeof assessmentSchema>;
/** A candidate drive kept with an assessment: a spec sheet's contents, or a disk run. */
export type StoredCandidate = z.infer<typeof storedCandidateSchema>;

/**
 * An assessment row of the library that no longer fits this model (edited outside DiskDelta, a
 * newer version's shape): listed with its id, its name and what is wrong, never used (#38).
 */
export type UnreadableAssessment = z.infer<typeof unreadableAssessmentSchema>;

/** One line of the assessments' list. */
export type AssessmentListItem = Assessment | UnreadableAssessment;

export function isUnreadableAssessment(a: AssessmentListItem): a is UnreadableAssessment {
  return 'unreadable' in a;
}

/** What to do about an unreadable assessment: its runs are untouched, only the row is lost. */
export function unreadableAssessmentText(a: UnreadableAssessment): string {
  return (
    `assessment ${a.id} "${a.label}" cannot be read from the library: ${a.unreadable}. ` +
    `Its runs are still in the library ('diskdelta list'); remove the assessment with 'diskdelta assess delete ${a.id}' ` +
    `and start it again with 'diskdelta assess start LABEL --before RUN'`
  );
}

/** The run a step held before it was deleted. */
export type EmptiedStep = z.infer<typeof emptiedStepSchema>;

export type AssessmentStepId = 'before' | 'after' | 'encryption' | 'trim' | 'working-set' | 'report';

export interface AssessmentStep {
  id: AssessmentStepId;
  title: string;
  done: boolean;
  /** The fields of the assessment this step sets (none for the report). */
  fields: readonly AssessmentField[];
  /** Runs this step held that were deleted since: the step is empty again, and says so. */
  emptied: EmptiedStep[];
  /** What it holds (run ids), or what to do: in words, with the command that does it. */
  text: string;
  /** Why a run the step held is not used (it no longer fits the step, or cannot be read): said, never used. */
  problems: string[];
}

export { ASSESSMENT_FIELDS };
export type AssessmentField = (typeof ASSESSMENT_FIELDS)[number];

/** What a deleted run left: "run 3 "SSD" was deleted from the library on 2026-12-01", or null. */
export function emptiedText(emptied: readonly EmptiedStep[]): string | null {
  if (emptied.length === 0) return null;
  const runs = emptied.map((e) => `run ${e.run} "${e.label}"`).join(' and ');
  return `${runs} ${emptied.length === 1 ? 'was' : 'were'} deleted from the library on ${emptied[0]!.at.slice(0, 10)}, so this step is empty again`;
}

/**
 * Candidate runs deleted from the library (migration 21 took them out of the candidates), each
 * said with what replaces it: "candidate run 12 "SSD" was deleted from the library on
 * 2026-12-01: diskdelta assess set 3 --candidate FILE|RUN … replaces it"; none: [].
 */
export function candidatesEmptiedLines(a: Pick<Assessment, 'id' | 'candidatesEmptied'>): string[] {
  return (a.candidatesEmptied ?? []).map(
    (e) =>
      `candidate run ${e.run}${e.label ? ` "${e.label}"` : ''} was deleted from the library on ${e.at.slice(0, 10)}: ` +
      `diskdelta assess set ${a.id} --candidate FILE|RUN … (or the app's Change the candidates) replaces it`,
  );
}

/**
 * Stored candidates that no longer fit this version (library.ts left them out): "candidate 2
 * ("Samsung 990") no longer fits this version's spec sheet (spec.capacityGB: …): left out of
 * the forecast; diskdelta assess set 3 --candidate FILE|RUN … replaces the candidates"; none: [].
 */
export function candidatesUnreadableLines(a: Pick<Assessment, 'id' | 'candidatesUnreadable'>): string[] {
  return (a.candidatesUnreadable ?? []).map(
    (c) =>
      `candidate ${c.position}${c.name ? ` ("${c.name}")` : ''} no longer fits this version's candidates (${c.problem}): it is left out of the forecast; ` +
      `diskdelta assess set ${a.id} --candidate FILE|RUN … (or the app's Change the candidates) replaces the candidates`,
  );
}

/** What the machine showing the steps knows that changes what they tell the user to do. */
export interface StepMachine {
  /** Why this kernel cannot make a dm-crypt mapping (node/crypto/throwaway-held.ts), or null when it may; undefined: not known. */
  encryptionUnavailable?: string | null | undefined;
}

/**
 * The steps in order, each done or with what to do; encryption, TRIM and the working set may stay
 * open (the report forecasts, or says so). Step 3 tells the user to measure encryption only where
 * the kernel can (New run reads the same fact).
 */
export function assessmentSteps(a: Assessment, machine: StepMachine = {}, check: AssessmentCheck = NO_CHECK): AssessmentStep[] {
  const id = a.id;
  const lost = (...fields: AssessmentField[]) => fields.flatMap((f) => (a.emptied[f] && a[f] === null ? [a.emptied[f]] : []));
  /** The step's text, led by what a deletion emptied. */
  const said = (emptied: EmptiedStep[], text: string) => {
    const gone = emptiedText(emptied);
    return gone ? `${gone}; ${text}` : text;
  };
  const step = (
    stepId: AssessmentStepId,
    title: string,
    fields: readonly AssessmentField[],
    done: boolean,
    doneText: string,
    todo: string,
  ): AssessmentStep => {
    const emptied = lost(...fields);
    // A stored run that no longer fits (usableAssessment set its field to null): not done, and why.
    const problems = [...new Set(fields.flatMap((f) => (check.problems[f] ? [check.problems[f]] : [])))];
    const isDone = done && problems.length === 0;
    const text = isDone ? doneText : said(emptied, problems.length > 0 ? `${problems.join('; ')}; ${todo}` : todo);
    return { id: stepId, title, fields, done: isDone, emptied, text, problems };
  };
  return [
    step(
      'before',
      '1. The current disk (before)',
      ['before'],
      a.before !== null,
      `run ${a.before}`,
      `measure it: diskdelta run --target DIR, then diskdelta assess set ${id} --before RUN (or pick an import)`,
    ),
    step(
      'after',
      '2. The new disk (after)',
      ['after'],
      a.after !== null,
      `run ${a.after}`,
      `after the swap (the assessment waits in the library across reboots): diskdelta run --target DIR, then diskdelta assess set ${id} --after RUN; or pick an imported or reference run`,
    ),
    step(
      'encryption',
      '3. The cost of encryption',
      ['encrypted'],
      a.encrypted !== null,
      check.encryptedIsReference
        ? `the published story: run ${a.encrypted}, a reference's encrypted run beside the same reference as after (another machine's, never this machine's cost)`
        : `measured: run ${a.encrypted}`,
      machine.encryptionUnavailable
        ? `not measured: the report forecasts it from this CPU's cipher ceilings (estimated); it cannot be measured here: ${machine.encryptionUnavailable}. On a kernel with device-mapper: diskdelta encryption --target DIR, then diskdelta assess set ${id} --encrypted RUN`
        : `not measured: the report forecasts it from this CPU's cipher ceilings (estimated); to measure, diskdelta encryption --target DIR, then diskdelta assess set ${id} --encrypted RUN`,
    ),
    step(
      'trim',
      '4. TRIM (audit and discard cost)',
      ['discardOff', 'discardOn'],
      a.discardOff !== null && a.discardOn !== null,
      `discard cost: runs ${a.discardOff} and ${a.discardOn}`,
      `not measured: sudo diskdelta trim-audit DIR and sudo diskdelta discard-cost DIR, then diskdelta assess set ${id} --discard OFF,ON`,
    ),
    step(
      'working-set',
      '5. How big an SSD (working set)',
      ['workingSet'],
      a.workingSet !== null,
      `working-set scan: run ${a.workingSet}`,
      `not scanned: diskdelta working-set DIR, then diskdelta assess set ${id} --working-set RUN`,
    ),
    {
      id: 'report',
      title: '6. The report',
      done: false,
      fields: [],
      emptied: [],
      problems: [],
      text:
        a.before !== null && a.after !== null
          ? `diskdelta assess report ${id} --out assessment.pdf`
          : 'needs the before and after runs first',
    },
  ];
}

/** What usableAssessment found: the steps whose stored run is not used, and why; whether step 3 holds the published story. */
export interface AssessmentCheck {
  problems: Partial<Record<AssessmentField, string>>;
  /** Step 3 holds a reference's encrypted run (fitting only beside the same reference as after). */
  encryptedIsReference: boolean;
}

const NO_CHECK: AssessmentCheck = { problems: {}, encryptedIsReference: false };

/** The runs of an assessment in report order: before, after, encrypted, the discard pair, then the working set. */
export function assessmentRunIds(a: Assessment): number[] {
  return [a.before, a.after, a.encrypted, a.discardOff, a.discardOn, a.workingSet].filter((x): x is number => x !== null);
}

/**
 * How far an assessment is, said the same by `assess list`, `assess show` and the app: the
 * measuring steps done of the five (the sixth, the report, is made from them and never "done").
 */
export function assessmentProgress(steps: readonly AssessmentStep[]): {
  done: number;
  of: number;
  next: AssessmentStep | undefined;
  text: string;
} {
  const measuring = steps.filter((s) => s.id !== 'report');
  const done = measuring.filter((s) => s.done).length;
  return {
    done,
    of: measuring.length,
    next: steps.find((s) => !s.done),
    text: `${done} of ${measuring.length} steps done, then the report`,
  };
}
