// `diskdelta assess …`: an upgrade assessment, kept in the library (model/assessment.ts) so that
// its steps can be days and a hardware swap apart: start it with the current disk's run, set the
// new disk's after the swap, add encryption and TRIM, then write its report, whose first section
// decides on its first page (analysis/verdicts.ts, report/first-page.ts).
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { CliFailure, DB_HELP, parseRunId, withLibrary } from '../library-cli.ts';
import {
  assessmentProgress,
  assessmentRunIds,
  assessmentSteps,
  candidatesEmptiedLines,
  candidatesUnreadableLines,
  isUnreadableAssessment,
  type Assessment,
  type AssessmentField,
  type AssessmentListItem,
  type StepMachine,
} from '../../shared/model/assessment.ts';
import { usableAssessment, type UsableAssessment } from '../../shared/model/assessment-usable.ts';
import type { StoredCandidate } from '../../shared/model/assessment.ts';
import { deviceMapperMissing } from '../../node/crypto/throwaway-held.ts';
import { thisCpu } from '../../node/crypto/cipher-ceilings.ts';
import { assessmentReportIds, assessmentReportRuns } from '../../node/report/assessment-runs.ts';
import { assessmentVerdicts, verdictLines, type AssessmentVerdicts } from '../../shared/analysis/verdicts.ts';
import { LibraryError, type Library } from '../../node/store/library.ts';
import { writeOut } from '../terminal.ts';
import { writeReport } from './report.ts';
import { ASSESSMENT_RUNS, asCliError, candidateArgs } from './forecast.ts';
import { assessmentForecast, keepAssessmentCandidates, type CandidateInput } from '../../node/api/forecast-service.ts';
import { formatForecastText } from '../forecast-text.ts';
import { judgedTable } from '../../shared/report/judged-model.ts';

const HELP = `Usage: diskdelta assess start LABEL [--before ID] [--after ID] [--encrypted ID] [--discard OFF,ON] [--working-set ID]
       diskdelta assess set A [--before ID] [--after ID] [--encrypted ID] [--discard OFF,ON] [--working-set ID]
       diskdelta assess set A --candidate FILE|RUN [--candidate …]   (--candidate none: no candidates)
       diskdelta assess show A [--json]
       diskdelta assess list [--json]
       diskdelta assess delete A
       diskdelta assess report A [--out FILE] [--html] [--force] [--paper a4|letter]

An upgrade assessment walks through: 1. the current disk (before), 2. the new one (after: measured
now, after the swap, or an imported or reference run), 3. the cost of encryption (a run under
dm-crypt; without it the report can only forecast), 4. TRIM (discard-cost's two runs), 5. how big
an SSD (a working-set scan), 6. the report. It is kept in the library, so step 2 can come after a reboot with new hardware;
\`assess show\` says which step is next and the command that does it.
  --before ID, --after ID, --encrypted ID   a run of the library for that step ('none' empties it)
  --discard OFF,ON                          discard-cost's runs without and with discard
  --working-set ID                          a working-set scan (diskdelta working-set DIR)
  --candidate FILE|RUN                      a drive you consider buying: a spec sheet (diskdelta forecast
                                            --example prints one; kept whole with the assessment) or a disk
                                            run; 1 to 4, replacing those kept. Forecast from the before run,
                                            and once the after run is measured, set beside it
A step whose run was deleted from the library is empty again, and \`assess show\` says which run went.
\`assess delete\` removes an assessment (its runs stay in the library); \`assess list\` marks one the
library can no longer read (a file changed outside DiskDelta) and says what is wrong with it.
${DB_HELP}`;

const STEP_FLAGS = {
  before: { type: 'string' },
  after: { type: 'string' },
  encrypted: { type: 'string' },
  discard: { type: 'string' },
  'working-set': { type: 'string' },
} as const;

type StepValues = Partial<Record<keyof typeof STEP_FLAGS, string>>;

/** The steps the flags set: run ids, null for 'none'. */
export function stepsFromFlags(values: StepValues): Partial<Record<AssessmentField, number | null>> {
  const id = (text: string) => (text.trim().toLowerCase() === 'none' ? null : parseRunId(text));
  const steps: Partial<Record<AssessmentField, number | null>> = {};
  if (values.before !== undefined) steps.before = id(values.before);
  if (values.after !== undefined) steps.after = id(values.after);
  if (values.encrypted !== undefined) steps.encrypted = id(values.encrypted);
  if (values['working-set'] !== undefined) steps.workingSet = id(values['working-set']);
  if (values.discard !== undefined) {
    const parts = values.discard.split(',');
    if (values.discard.trim().toLowerCase() === 'none') [steps.discardOff, steps.discardOn] = [null, null];
    else if (parts.length !== 2)
      throw new UsageError(
        `--discard '${values.discard}' needs two run ids, without then with discard: --discard 6,7 (discard-cost prints them)`,
      );
    else [steps.discardOff, steps.discardOn] = [id(parts[0]!), id(parts[1]!)];
  }
  return steps;
}

/**
 * Sets steps through the library, whose one check refuses a run that does not fit its step
 * (model/assessment-check.ts): a wrong run is the user's mistake, said as bad usage (exit 2).
 */
function setSteps<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof LibraryError && error.code === 'wrong-role') throw new UsageError(error.message);
    throw error;
  }
}

function parseAssessmentId(text: string | undefined): number {
  const match = text === undefined ? null : /^#?(\d{1,15})$/.exec(text.trim());
  if (!match || !(Number(match[1]) > 0)) throw new UsageError(`which assessment? give its number ('diskdelta assess list' shows them)`);
  return Number(match[1]);
}

function requireAssessment(library: Library, id: number): Assessment {
  const a = library.getAssessment(id);
  if (!a) throw new CliFailure(`no assessment ${id} in the library ${library.path} ('diskdelta assess list' shows them)`);
  return a;
}

/** The assessment as it may be used: a step whose stored run no longer fits (or cannot be read) is said, never used. */
export function checkedAssessment(library: Pick<Library, 'readRuns'>, a: Assessment): UsableAssessment {
  const ids = assessmentRunIds(a);
  const { runs } = library.readRuns(ids);
  return usableAssessment(a, new Map(ids.map((id, i) => [id, runs[i] ?? null])));
}

/** One line of `assess list`: the steps done, or, for a row the library can no longer read, what is wrong. */
export function assessmentListLine(a: AssessmentListItem, check?: UsableAssessment): string {
  const head = `${String(a.id).padStart(4)}  ${a.label}`;
  if (isUnreadableAssessment(a))
    return `${head}  (cannot be read: ${a.unreadable}; 'diskdelta assess delete ${a.id}' removes it, its runs stay)`;
  // One count for the app and the CLI (assessmentProgress): the measuring steps, then the report.
  const progress = assessmentProgress(assessmentSteps(check?.assessment ?? a, {}, check)).text;
  const unused = Object.keys(check?.problems ?? {}).length;
  return `${head}  (${progress}${unused > 0 ? `; ${unused === 1 ? 'a step holds a run' : `${unused} steps hold runs`} not used: diskdelta assess show ${a.id} says why` : ''})`;
}

/**
 * The assessment's steps, done or with what to do next (`check`: what usableAssessment found);
 * then its verdicts (analysis/verdicts.ts) when given.
 */
export function assessmentText(
  a: Assessment,
  machine: StepMachine = {},
  check?: UsableAssessment,
  verdicts: AssessmentVerdicts | null = null,
): string {
  const steps = assessmentSteps(check?.assessment ?? a, machine, check);
  const { next, text: progress } = assessmentProgress(steps);
  return [
    `Assessment ${a.id}: ${a.label} (started ${a.createdAt.slice(0, 10)}, last changed ${a.updatedAt.slice(0, 10)}): ${progress}`,
    ...steps.map((s) => `  ${s.done ? '✔' : s === next ? '→' : ' '} ${s.title}: ${s.text}`),
    ...(verdicts ? ['', 'Verdicts (as page 1 of the report says them):', ...verdictLines(verdicts).map((l) => `  ${l}`)] : []),
    '',
  ].join('\n');
}

/** `--candidate` values as given (forecast.ts's candidateArgs); 'none' alone: no candidates. */
async function candidateInputs(given: string[]): Promise<CandidateInput[]> {
  if (given.length === 1 && given[0]!.trim().toLowerCase() === 'none') return [];
  return candidateArgs(given);
}

/** What `set --candidate` kept, said: the steps above do not show the candidates. */
function keptCandidatesText(id: number, kept: readonly StoredCandidate[], library: Pick<Library, 'getRuns'>): string {
  if (kept.length === 0) return '  Candidates: none kept.\n';
  // A run by its id and label, as the forecast names it (two imports of one model stay apart).
  const label = (run: number) => library.getRuns([run])[0]?.label;
  const names = kept.map((c) =>
    c.kind === 'spec' ? `${c.spec.name} (from ${c.source})` : `run ${c.id}${label(c.id) === undefined ? '' : ` "${label(c.id)}"`}`,
  );
  return `  Candidates kept: ${names.join('; ')}. diskdelta assess show ${id} gives their forecast.\n`;
}

/**
 * The candidates' forecast from the before run, whole (the words of `diskdelta forecast`, which
 * forecasts from the newest disk run, not this one), led once bought and measured by each
 * candidate's forecast beside the measurement.
 */
function candidatesText(f: NonNullable<ReturnType<typeof assessmentForecast>>): string {
  const lines = ['', 'Candidates (estimated from the before run):'];
  if (f.judged) {
    f.judged.forEach((c, i) => {
      lines.push(`  ${i + 1}. ${c.name}, beside the new disk measured:`);
      for (const j of [...c.figures, ...c.workloads]) lines.push(`     ${j.line}`);
    });
    // Said once, as under the app's judged table (report/judged-model.ts).
    const table = judgedTable(f.judged);
    if (table.noisyNote) lines.push(`  ${table.noisyNote}`);
    if (table.roughNote) lines.push(`  ${table.roughNote}.`);
    for (const u of table.unmeasured) lines.push(`  ${u}.`);
  } else lines.push('  Once the after run is measured, each forecast is set beside it here.');
  for (const n of f.notes) lines.push(`  note: ${n}`);
  return `${lines.join('\n')}\n\n${formatForecastText(f.forecast)}`;
}

/** The verdicts as JSON: the data without the runs' whole records (their ids instead). */
function verdictsJson(v: AssessmentVerdicts) {
  const { roles, ...rest } = v;
  return { ...rest, roles: Object.fromEntries(Object.entries(roles).map(([field, run]) => [field, run.id ?? null])) };
}

export const assessCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const [verb, ...rest] = argv;
    const { values, positionals } = parseFlags(
      rest,
      {
        ...STEP_FLAGS,
        candidate: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        out: { type: 'string' },
        html: { type: 'boolean' },
        force: { type: 'boolean' },
        paper: { type: 'string' },
        db: { type: 'string' },
      },
      true,
    );
    if (verb === 'report') {
      const id = parseAssessmentId(positionals[0]);
      // Read (and the library closed) before the report opens it again.
      const got: { a?: Assessment } = {};
      // A step whose run no longer fits is never used: the report reads the assessment as it may be used.
      const found = await withLibrary(
        'assess',
        values.db,
        (library) => ((got.a = checkedAssessment(library, requireAssessment(library, id)).assessment), 0),
        { readOnly: true },
      );
      const a = got.a;
      if (found !== 0 || !a) return found;
      if (a.before === null || a.after === null)
        throw new UsageError(
          `assessment ${id} has no ${a.before === null ? 'before' : 'after'} run yet: diskdelta assess show ${id} says what to do`,
        );
      let ids: number[] = [];
      const withCandidates: { forecast?: ReturnType<typeof assessmentForecast> } = {};
      const cpu = await thisCpu();
      await withLibrary(
        'assess',
        values.db,
        (library) => {
          ids = assessmentReportIds(library, a);
          // The candidates' section: the forecast `assess show` gives, from the before run.
          withCandidates.forecast = asCliError(() => assessmentForecast(library, a, cpu), ASSESSMENT_RUNS);
          return 0;
        },
        { readOnly: true },
      );
      return writeReport(ids, values, {
        assessment: a,
        name: `diskdelta-assessment-${id}`,
        forecast: withCandidates.forecast?.forecast ?? null,
        judged: withCandidates.forecast?.judged ?? null,
      });
    }
    // Step 3 says whether this kernel can measure encryption, as New run does (read once, before the library opens).
    const machine = verb === 'list' ? {} : { encryptionUnavailable: await deviceMapperMissing() };
    const cpu = verb === 'show' ? await thisCpu() : null;
    // Spec sheets are read and checked before the library opens: a refused one changes nothing.
    const candidates = values.candidate && verb === 'set' ? await candidateInputs(values.candidate) : null;
    return withLibrary('assess', values.db, (library) => {
      if (verb === 'start') {
        const label = positionals.join(' ').trim();
        if (!label) throw new UsageError('name the assessment: diskdelta assess start "laptop HDD → SSD" --before RUN');
        const a = setSteps(() => library.createAssessment(label, stepsFromFlags(values)));
        writeOut(values.json ? `${JSON.stringify(a, null, 2)}\n` : assessmentText(a, machine, checkedAssessment(library, a)));
        return 0;
      }
      if (verb === 'set') {
        const id = parseAssessmentId(positionals[0]);
        const steps = stepsFromFlags(values);
        if (Object.keys(steps).length === 0 && candidates === null)
          throw new UsageError('set which step? --before, --after, --encrypted, --discard, --working-set or --candidate');
        requireAssessment(library, id);
        if (Object.keys(steps).length > 0) setSteps(() => library.updateAssessment(id, steps));
        // The app's assessments.setCandidates keeps them the same way (forecast-service.ts).
        if (candidates !== null) asCliError(() => keepAssessmentCandidates(library, id, candidates));
        const a = requireAssessment(library, id);
        writeOut(
          values.json
            ? `${JSON.stringify(a, null, 2)}\n`
            : assessmentText(a, machine, checkedAssessment(library, a)) +
                (candidates !== null ? keptCandidatesText(id, a.candidates ?? [], library) : ''),
        );
        return 0;
      }
      if (verb === 'show') {
        const a = requireAssessment(library, parseAssessmentId(positionals[0]));
        const check = checkedAssessment(library, a);
        const steps = assessmentSteps(check.assessment, machine, check);
        // The same verdicts the report's page 1 and the app render (analysis/verdicts.ts).
        // A step that is not used is said by its step (check.problems); the verdicts, as the
        // report's, are made of the used runs only, so an unreadable run never breaks them.
        const records = assessmentReportRuns(library, check.assessment);
        const verdicts = assessmentVerdicts(check.assessment, records, library.latestCipherCeilings(cpu ?? undefined));
        const forecast = asCliError(() => assessmentForecast(library, check.assessment, cpu!), ASSESSMENT_RUNS);
        writeOut(
          values.json
            ? `${JSON.stringify({ ...a, steps, progress: assessmentProgress(steps).text, problems: check.problems, verdicts: verdictsJson(verdicts), candidatesForecast: forecast }, null, 2)}\n`
            : assessmentText(a, machine, check, verdicts) +
                (forecast ? candidatesText(forecast) : '') +
                [...candidatesEmptiedLines(a), ...candidatesUnreadableLines(a)].map((l) => `  ${l}\n`).join(''),
        );
        return 0;
      }
      if (verb === 'list') {
        const all = library.listAssessments();
        writeOut(
          values.json
            ? `${JSON.stringify(all, null, 2)}\n`
            : all.length === 0
              ? 'No assessments yet: diskdelta assess start LABEL --before RUN starts one.\n'
              : all.map((a) => assessmentListLine(a, isUnreadableAssessment(a) ? undefined : checkedAssessment(library, a))).join('\n') +
                '\n',
        );
        return 0;
      }
      if (verb === 'delete') {
        const id = parseAssessmentId(positionals[0]);
        if (!library.deleteAssessment(id))
          throw new CliFailure(`no assessment ${id} in the library ${library.path} ('diskdelta assess list' shows them)`);
        writeOut(`Deleted assessment ${id} (its runs stay in the library).\n`);
        return 0;
      }
      throw new UsageError(`'${verb ?? ''}' is not an assess verb: use start, set, show, list, delete or report`);
    });
  },
};
