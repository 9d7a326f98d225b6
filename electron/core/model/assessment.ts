// An upgrade assessment: one story across days (before, the hardware swap, after), kept in the
// library (table `assessments`, migration 8) so that its second step can come after a reboot
// with the new disk in. It holds run ids only; the runs stay ordinary runs of the library.
// Pure: the CLI, the app and the report read the steps from here.

export interface Assessment {
  id: number;
  label: string;
  createdAt: string;
  updatedAt: string;
  /** The current disk, measured here (or imported). */
  before: number | null;
  /** The new disk: measured now or later, or picked from imports and references. */
  after: number | null;
  /** The new disk under dm-crypt, measured; null: the report forecasts it. */
  encrypted: number | null;
  /** discard-cost's two runs on the new disk, without and with discard. */
  discardOff: number | null;
  discardOn: number | null;
  notes: string;
}

export type AssessmentStepId = 'before' | 'after' | 'encryption' | 'trim' | 'report';

export interface AssessmentStep {
  id: AssessmentStepId;
  title: string;
  done: boolean;
  /** What it holds (run ids), or what to do: in words, with the command that does it. */
  text: string;
}

export const ASSESSMENT_FIELDS = ['before', 'after', 'encrypted', 'discardOff', 'discardOn'] as const;
export type AssessmentField = (typeof ASSESSMENT_FIELDS)[number];

/** The steps in order, each done or with what to do; the encryption and TRIM steps may stay open (the report forecasts, or says so). */
export function assessmentSteps(a: Assessment): AssessmentStep[] {
  const id = a.id;
  return [
    {
      id: 'before',
      title: '1. The current disk (before)',
      done: a.before !== null,
      text:
        a.before !== null
          ? `run ${a.before}`
          : `measure it: diskdelta run --target DIR, then diskdelta assess set ${id} --before RUN (or pick an import)`,
    },
    {
      id: 'after',
      title: '2. The new disk (after)',
      done: a.after !== null,
      text:
        a.after !== null
          ? `run ${a.after}`
          : `after the swap (the assessment waits in the library across reboots): diskdelta run --target DIR, then diskdelta assess set ${id} --after RUN; or pick an imported or reference run`,
    },
    {
      id: 'encryption',
      title: '3. The cost of encryption',
      done: a.encrypted !== null,
      text:
        a.encrypted !== null
          ? `measured: run ${a.encrypted}`
          : `not measured: the report forecasts it from this CPU's cipher ceilings (estimated); to measure, diskdelta encryption --target DIR, then diskdelta assess set ${id} --encrypted RUN`,
    },
    {
      id: 'trim',
      title: '4. TRIM (audit and discard cost)',
      done: a.discardOff !== null && a.discardOn !== null,
      text:
        a.discardOff !== null && a.discardOn !== null
          ? `discard cost: runs ${a.discardOff} and ${a.discardOn}`
          : `not measured: sudo diskdelta trim-audit DIR and sudo diskdelta discard-cost DIR, then diskdelta assess set ${id} --discard OFF,ON`,
    },
    {
      id: 'report',
      title: '5. The report',
      done: false,
      text:
        a.before !== null && a.after !== null
          ? `diskdelta assess report ${id} --out assessment.pdf`
          : 'needs the before and after runs first',
    },
  ];
}

/** The runs of an assessment in report order: before, after, encrypted, then the discard pair. */
export function assessmentRunIds(a: Assessment): number[] {
  return [a.before, a.after, a.encrypted, a.discardOff, a.discardOn].filter((x): x is number => x !== null);
}
