// The one forecast of candidate drives (issue #42), computed here for every front end: the CLI's
// `diskdelta forecast`, the app's Candidates page (procedure forecast.candidates), the report's
// Candidates section and the assessment's candidates all call forecastFromLibrary, so they can
// only ever show the same figures. It picks the inputs from the library (the disk in use today,
// its workloads, the write counters, the working set, this CPU's cipher ceilings) and hands them
// to the pure model (shared/analysis/candidate-forecast.ts).
import { MAX_CANDIDATES, parseCandidateSpec, type CandidateSpec } from '../../shared/model/candidate.ts';
import { candidateFromRun, candidateFromSpec, type Candidate, type MachineLimits } from '../../shared/analysis/candidate.ts';
import { forecastCandidates, type Forecast } from '../../shared/analysis/candidate-forecast.ts';
import { cipherRates } from '../../shared/analysis/encryption.ts';
import { runEncrypted, runKind, sameDisk } from '../../shared/model/run-kind.ts';
import { testsOfKind } from '../../shared/model/catalog.ts';
import { WORKING_SET_TEST } from '../../shared/analysis/working-set.ts';
import { ACCESS_CURVE_TEST } from '../../shared/analysis/access-trace.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import type { Library } from '../store/library.ts';
import type { Assessment, StoredCandidate } from '../../shared/model/assessment.ts';
import { forecastBesideMeasured, type JudgedCandidate } from '../../shared/analysis/candidate-judged.ts';
import { lowestCeiling } from '../system/ceiling.ts';

/** What the forecast reads of the library. */
export type ForecastLibrary = Pick<Library, 'listRuns' | 'getRuns' | 'readRuns' | 'writeSamples' | 'latestCipherCeilings'>;

/** A candidate as given: a spec sheet's JSON (checked here, whoever sent it) or a run of the library. */
export type CandidateInput = { kind: 'spec'; spec: unknown; source: string } | { kind: 'run'; id: number };

export interface ForecastRequest {
  candidates: readonly CandidateInput[];
  /** The run measuring the disk in use today; default: the newest measured disk run. */
  current?: number | undefined;
  /** Workload runs to forecast; default: the newest measured run of each workload on the current disk. */
  workloads?: readonly number[] | undefined;
  /** true: under dm-crypt on this CPU; false: without; undefined: as the current disk is. */
  encrypt?: boolean | undefined;
}

/**
 * Why no forecast: `input` is the caller's to fix (a refused spec sheet, a run of the wrong kind:
 * exit 2, BAD_INPUT), `missing` a run id the library does not hold (NOT_FOUND), `unavailable` what
 * the library lacks (no disk measured yet, no cipher ceilings).
 */
export class ForecastError extends Error {
  override name = 'ForecastError';
  readonly kind: 'input' | 'missing' | 'unavailable';
  /** The run given as this that is refused: each front end names it its way (`--current 12`, "current run 12"). */
  readonly about: { as: 'candidate' | 'current' | 'workload'; id: number } | null;
  constructor(kind: ForecastError['kind'], message: string, about: ForecastError['about'] = null) {
    super(message);
    this.kind = kind;
    this.about = about;
  }
}

/** A spec sheet's JSON as a candidate, or a ForecastError whose lines each name a field. */
export function specCandidate(json: unknown, source: string): Candidate {
  return candidateFromSpec(checkedSpec(json, source), source);
}

/** A spec sheet's JSON checked by the one validator, or a ForecastError whose lines each name a field. */
function checkedSpec(json: unknown, source: string): CandidateSpec {
  const parsed = parseCandidateSpec(json);
  if (!parsed.ok)
    throw new ForecastError(
      'input',
      `the spec sheet ${source} is refused; fix each field and try again:\n  ${parsed.problems.join('\n  ')}`,
    );
  return parsed.spec;
}

function runsOrFail(library: Pick<Library, 'getRuns'>, ids: readonly number[]): RunRecord[] {
  const runs = library.getRuns(ids);
  const missing = ids.filter((_, i) => runs[i] === null);
  if (missing.length > 0)
    throw new ForecastError(
      'missing',
      `no ${missing.length === 1 ? 'run' : 'runs'} ${missing.join(', ')} in the library (diskdelta list shows the ids)`,
    );
  return runs as RunRecord[];
}

/** How far back the default picks look: the newest this many runs of the kind. */
const NEWEST_LOOKED_AT = 50;

/**
 * The newest run the filter selects that `accept`s, or null: the library answers the filter (its
 * kind column says what each run is) and runs are read newest first until one fits. A run the
 * library can no longer read (changed outside DiskDelta) is passed over, as `diskdelta list`
 * marks it: the default picks are the newest readable ones, never a failure.
 */
function newestRun(
  library: ForecastLibrary,
  filter: Parameters<Library['listRuns']>[0],
  accept: (run: RunRecord) => boolean = () => true,
): RunRecord | null {
  const ids = library
    .listRuns({ ...filter, limit: NEWEST_LOOKED_AT })
    .map((s) => s.id)
    .reverse();
  for (const id of ids) {
    const run = library.readRuns([id]).runs[0];
    if (run && accept(run)) return run;
  }
  return null;
}

/** The newest measured run of each workload on the current disk, each run once (one run may hold several workloads). */
function newestWorkloads(library: ForecastLibrary, current: RunRecord): RunRecord[] {
  const found = new Map<number, RunRecord>();
  for (const t of testsOfKind('workload')) {
    const run = newestRun(library, { source: 'measured', test: t.id, kind: 'workload' }, (r) => sameDisk(r, current));
    if (run?.id !== undefined) found.set(run.id, run);
  }
  return [...found.values()];
}

/** The candidates given, checked: spec sheets first (a refused one is said before the library is read). */
/** The one count check of candidates given (the contract's schemas check the app's calls too). */
function checkCount(given: readonly CandidateInput[]): void {
  if (given.length > MAX_CANDIDATES)
    throw new ForecastError('input', `at most ${MAX_CANDIDATES} candidates side by side (${given.length} given)`);
}

function candidatesOf(library: ForecastLibrary, given: readonly CandidateInput[]): Candidate[] {
  if (given.length === 0) throw new ForecastError('input', 'give a candidate: a spec sheet or a disk run of the library');
  checkCount(given);
  const specs = given.map((g) => (g.kind === 'spec' ? specCandidate(g.spec, g.source) : null));
  return given.map((g, i) => {
    if (g.kind === 'spec') return specs[i]!;
    const c = candidateFromRun(runsOrFail(library, [g.id])[0]!);
    if ('refused' in c) throw new ForecastError('input', c.refused, { as: 'candidate', id: g.id });
    return c;
  });
}

/** The forecast, and notes for the person (what was assumed for want of a measurement). */
export function forecastFromLibrary(
  library: ForecastLibrary,
  request: ForecastRequest,
  cpu: { model: string | null; cpus: number },
): { forecast: Forecast; notes: string[] } {
  const { forecast, notes } = forecastWithWorkloads(library, request, cpu);
  return { forecast, notes };
}

/** The forecast, its notes, the workload runs and the current-disk run it read (the judged forecast reads them again on the new disk). */
function forecastWithWorkloads(
  library: ForecastLibrary,
  request: ForecastRequest,
  cpu: { model: string | null; cpus: number },
): { forecast: Forecast; notes: string[]; workloads: RunRecord[]; current: RunRecord } {
  const candidates = candidatesOf(library, request.candidates);
  const notes: string[] = [];
  const current =
    request.current !== undefined ? runsOrFail(library, [request.current])[0]! : newestRun(library, { source: 'measured', kind: 'disk' });
  if (!current)
    throw new ForecastError(
      'unavailable',
      'no measured disk run in the library to forecast from: measure the disk in use today first (diskdelta run --target ~/)',
    );
  if (runKind(current) !== 'disk')
    throw new ForecastError('input', `"${current.label}" is not a disk measured by the rate tests`, { as: 'current', id: current.id! });
  const workloads = request.workloads
    ? runsOrFail(library, request.workloads).map((r) => {
        if (runKind(r) !== 'workload')
          throw new ForecastError('input', `"${r.label}" is not a workload run`, { as: 'workload', id: r.id! });
        return r;
      })
    : newestWorkloads(library, current);
  const encrypt = request.encrypt ?? runEncrypted(current) === true;
  const ceilings = encrypt ? library.latestCipherCeilings(cpu) : null;
  const rates = ceilings ? cipherRates(ceilings) : null;
  if (encrypt && !rates) {
    const why = 'no cipher ceilings of this CPU in the library (aes-xts-plain64, 512-bit): run diskdelta ciphers first';
    if (request.encrypt === true) throw new ForecastError('unavailable', `cannot forecast encrypted: ${why}`);
    notes.push(`the current disk is encrypted, but ${why}; forecasting without dm-crypt's ceiling`);
  }
  const ceiling = lowestCeiling(current.target.device, current.target.stack);
  const limits: MachineLimits = {
    link: ceiling
      ? {
          ceilingBytesPerSec: ceiling.bytesPerSec,
          description: `${current.target.device?.linkDescription ?? ceiling.where}, ${Math.round(ceiling.bytesPerSec / 1e6)} MB/s`,
          transport: current.target.device?.transport ?? null,
        }
      : null,
    cipher: rates,
  };
  const workingSet = newestRun(library, { test: WORKING_SET_TEST });
  // The recorded day to replay: the newest access-curve run, picked as the working set is.
  const recording = newestRun(library, { test: ACCESS_CURVE_TEST });
  const forecast = forecastCandidates({
    current,
    candidates,
    limits,
    workloads,
    writeSamples: library.writeSamples(),
    workingSet,
    recording,
  });
  return { forecast, notes, workloads, current };
}

/**
 * An assessment's candidates forecast from its before run (the disk it replaces), and once its
 * after run is measured, each forecast set beside that measurement; null: no candidates or no
 * before run yet. The same forecast `assess show`, `assess report` and the app's report give.
 * The workloads are judged from the workload runs of each disk (newestWorkloads, by sameDisk).
 */
export function assessmentForecast(
  library: ForecastLibrary,
  assessment: Assessment,
  cpu: { model: string | null; cpus: number },
): { forecast: Forecast; notes: string[]; judged: JudgedCandidate[] | null } | null {
  const stored = assessment.candidates ?? [];
  if (stored.length === 0 || assessment.before === null) return null;
  const { forecast, notes, workloads, current } = forecastWithWorkloads(library, { candidates: stored, current: assessment.before }, cpu);
  const after = assessment.after === null ? null : library.getRuns([assessment.after])[0];
  // The new disk's workloads are picked as the before disk's are: the newest of each, timed on that disk.
  const judged = after
    ? forecastBesideMeasured(forecast, after, { before: workloads, after: newestWorkloads(library, after) }, current)
    : null;
  return { forecast, notes, judged };
}

/**
 * Keeps these candidates with assessment `id` (none: it weighs none): the one path of
 * `assess set --candidate` and the app's assessments.setCandidates. Everything is checked before
 * the library is written (each spec sheet by the one validator, each run as a candidate), so a
 * refused one changes nothing; false: no such assessment.
 */
export function keepAssessmentCandidates(
  library: Pick<Library, 'getRuns' | 'setAssessmentCandidates'>,
  id: number,
  given: readonly CandidateInput[],
): boolean {
  checkCount(given);
  const stored = given.map((g): StoredCandidate => {
    if (g.kind === 'run') return { kind: 'run', id: g.id };
    return { kind: 'spec', source: g.source, spec: checkedSpec(g.spec, g.source) };
  });
  for (const g of given)
    if (g.kind === 'run') {
      const c = candidateFromRun(runsOrFail(library, [g.id])[0]!);
      if ('refused' in c) throw new ForecastError('input', c.refused, { as: 'candidate', id: g.id });
    }
  return library.setAssessmentCandidates(id, stored);
}
