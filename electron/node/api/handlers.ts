// The implementation of every procedure of the contract, written against small ports (below)
// rather than the modules themselves, so that a backend module that is missing makes its
// procedures answer UNAVAILABLE instead of breaking the app, and so tests can run the
// dispatch path without a disk. backend.ts adapts the real modules to these ports.
import type { RunRecord, Warning } from '../../shared/model/results.ts';
import { importItems, importSummary, LibraryError, type Library } from '../store/library.ts';
import type { ProcedureOutput, RunRef, SystemOverview } from '../../shared/contract/contract.ts';
import { DEFAULT_LIST_PAGE, MAX_LIST_PAGE } from '../../shared/model/list-page.ts';
import { ApiFailure, type Handlers } from './dispatch.ts';
import type { RunManager } from './run-manager.ts';
import type { Importer } from './import-worker.ts';
import { withTrimAudits } from './trim-seen.ts';
import { ReportPrintError, type ReportHtml, type ReportPrinter } from '../../shared/report/printer.ts';
import { ReportInputError } from '../../shared/report/report-model.ts';
import { fleetGroups, fleetRunsOf } from '../../shared/analysis/fleet-runs.ts';
import { compareFleet } from '../../shared/analysis/fleet-compare.ts';
import { assessmentRunIds, type Assessment, type AssessmentField } from '../../shared/model/assessment.ts';
import { assessmentReportIds } from '../report/assessment-runs.ts';
import type { RenderOptions } from '../../shared/report/print.ts';
import { usableAssessment } from '../../shared/model/assessment-usable.ts';
import {
  assessmentForecast,
  ForecastError,
  forecastFromLibrary,
  keepAssessmentCandidates,
  type CandidateInput,
} from './forecast-service.ts';
import { thisCpu } from '../crypto/cipher-ceilings.ts';
import type { Forecast } from '../../shared/analysis/candidate-forecast.ts';

type Awaitable<T> = T | Promise<T>;

/** The library service itself (store/library.ts), the one the CLI uses too: no adapter. */
export type LibraryPort = Pick<
  Library,
  | 'importRuns'
  | 'getRun'
  | 'getRuns'
  | 'readRuns'
  | 'listRuns'
  | 'listRunItems'
  | 'relabel'
  | 'deleteRun'
  | 'latestTrimAudits'
  | 'createAssessment'
  | 'getAssessment'
  | 'listAssessments'
  | 'updateAssessment'
  | 'setAssessmentCandidates'
  | 'writeSamples'
  | 'latestCipherCeilings'
>;

export interface FormatsPort {
  parseImport(fileName: string, bytes: Uint8Array): Awaitable<{ records: RunRecord[]; warnings: Warning[] }>;
  exportRuns(records: RunRecord[], format: 'json' | 'csv'): Awaitable<{ fileName: string; mimeType: string; content: string }>;
  references(): Awaitable<Array<{ key: string; record: RunRecord }>>;
}

export interface SystemPort {
  overview(): Awaitable<SystemOverview>;
  describeTarget(path: string): Awaitable<ProcedureOutput<'system.describeTarget'>>;
}

export interface CryptoPort {
  /** The last cipher ceilings measured in this session, or measure now. */
  ciphers(measure: boolean): Awaitable<ProcedureOutput<'crypto.ciphers'>['ceilings']>;
}

export interface DialogPort {
  pickFolder(): Awaitable<string | null>;
}

type PortName = 'library' | 'formats' | 'system' | 'runs' | 'dialogs' | 'printer' | 'reportHtml' | 'crypto';

export interface Backend {
  library: LibraryPort | null;
  formats: FormatsPort | null;
  system: SystemPort | null;
  runs: RunManager | null;
  /** Imports off the main thread (import-worker.ts); none: parsed and saved in this thread. */
  importer?: Importer | null;
  crypto?: CryptoPort | null;
  /** Native dialogs: Electron only. */
  dialogs?: DialogPort | null;
  /** The report view as HTML (the renderer's, handed in by the front end); none: no reports. */
  reportHtml?: ReportHtml | null;
  /** Prints a report's HTML to PDF: Electron's printToPDF in the app, the system's Chromium in browser mode. */
  printer?: ReportPrinter | null;
  /** Shown in reports ("DiskDelta 0.1.0"). */
  appVersion?: string;
  /** Why a port is null, shown in the UNAVAILABLE message. */
  missing: Partial<Record<PortName, string>>;
}

function need<K extends PortName>(backend: Backend, key: K): NonNullable<Backend[K]> {
  const port = backend[key];
  if (port) return port;
  throw new ApiFailure('UNAVAILABLE', backend.missing[key] ?? `the ${key} module is not available in this build`);
}

async function getOrFail(library: LibraryPort, id: number): Promise<RunRecord> {
  // A run the library can no longer read is said as it is (FAILED, with what to do), not as INTERNAL.
  const record = libraryCall(() => library.getRun(id));
  if (!record) throw new ApiFailure('NOT_FOUND', `no run with id ${id} in the library`);
  return record;
}

export function createHandlers(backend: Backend): Handlers {
  return {
    // The machine as it is, with what the library keeps about it: the last TRIM audit of each mount.
    'system.overview': async () => withTrimAudits(await need(backend, 'system').overview(), backend.library?.latestTrimAudits() ?? []),
    'system.describeTarget': async ({ path }) => need(backend, 'system').describeTarget(path),

    'dialog.pickFolder': async () => {
      if (!backend.dialogs)
        throw new ApiFailure('UNAVAILABLE', backend.missing.dialogs ?? 'no folder dialog in browser mode: type the folder path');
      return { path: await backend.dialogs.pickFolder() };
    },
    'runs.start': async (spec) => need(backend, 'runs').start(spec),
    'runs.cancel': async ({ runId, keepFinished }) => need(backend, 'runs').cancel(runId, keepFinished === true),
    'runs.active': async () => (backend.runs ? backend.runs.list() : []),

    'library.list': async (filter) => need(backend, 'library').listRunItems({ ...filter, limit: filter.limit ?? DEFAULT_LIST_PAGE }),
    'library.get': async ({ id }) => getOrFail(need(backend, 'library'), id),
    'library.relabel': async ({ id, label }) => {
      if (!need(backend, 'library').relabel(id, label)) throw new ApiFailure('NOT_FOUND', `no run with id ${id}`);
      return { id, label };
    },
    'library.delete': async ({ id }) => ({ deleted: need(backend, 'library').deleteRun(id) }),
    'library.import': async ({ fileName, contentBase64 }) => {
      const library = need(backend, 'library');
      const bytes = new Uint8Array(Buffer.from(contentBase64, 'base64'));
      if (backend.importer) return backend.importer.importFile(fileName, bytes);
      const { records, warnings } = await need(backend, 'formats').parseImport(fileName, bytes);
      return { ...importSummary(library.importRuns(importItems(records, bytes))), warnings };
    },
    'library.export': async ({ ids, format }) => {
      const library = need(backend, 'library');
      const formats = need(backend, 'formats');
      const records = await Promise.all(ids.map((id) => getOrFail(library, id)));
      return formats.exportRuns(records, format);
    },

    'references.list': async () => need(backend, 'formats').references(),
    'crypto.ciphers': async ({ measure }) => ({ ceilings: await need(backend, 'crypto').ciphers(measure === true) }),
    'compare.load': async ({ runs }) => ({ runs: await loadRefs(backend, runs) }),
    'report.render': async ({ runs, format, paper, unit }) => {
      const records = (await loadRefs(backend, runs)).map((l) => l.record);
      return renderFile(backend, records, { format, paper, unit });
    },

    'assessments.list': async () => need(backend, 'library').listAssessments().slice(0, MAX_LIST_PAGE),
    'assessments.get': async ({ id }) => getAssessmentOrFail(need(backend, 'library'), id),
    'assessments.start': async ({ label, steps }) => {
      const library = need(backend, 'library');
      const ids = await stepRunIds(backend, steps ?? {});
      return libraryCall(() => library.createAssessment(label, ids));
    },
    'assessments.set': async ({ id, steps }) => {
      const library = need(backend, 'library');
      getAssessmentOrFail(library, id);
      const ids = await stepRunIds(backend, steps);
      libraryCall(() => library.updateAssessment(id, ids));
      return getAssessmentOrFail(library, id);
    },
    'assessments.report': async ({ id, format, paper, unit }) => {
      const library = need(backend, 'library');
      const assessment = usableAssessmentOf(library, id);
      if (assessment.before === null || assessment.after === null)
        throw new ApiFailure(
          'BAD_INPUT',
          `assessment ${id} has no ${assessment.before === null ? 'before' : 'after'} run yet: set that step first, then save the report`,
        );
      // The same runs as `diskdelta assess report`: the assessment's, then a reference after run's published partner.
      const records = await Promise.all(assessmentReportIds(library, assessment).map((runId) => getOrFail(library, runId)));
      // The candidates it weighs (assess set --candidate): the Candidates section, forecast from its before run.
      const cpu = await thisCpu();
      const candidates = await forecastCall(async () => assessmentForecast(library, assessment, cpu));
      const file = await renderFile(backend, records, {
        format,
        paper,
        unit,
        assessment,
        forecast: candidates?.forecast ?? null,
        judged: candidates?.judged ?? null,
      });
      // The runs' ids make the report's name elsewhere; an assessment's is named after it.
      return { ...file, fileName: file.fileName.replace(/^diskdelta-report-[^.]*/, `diskdelta-assessment-${id}`) };
    },
    'forecast.candidates': async ({ candidates, current, encrypt }) => appForecast(backend, candidates, { current, encrypt }),
    'assessments.setCandidates': async ({ id, candidates }) => {
      const library = need(backend, 'library');
      const kept = getAssessmentOrFail(library, id).candidates ?? [];
      // A spec sheet already kept (sent back as the app lists it) keeps where it came from (`assess set --candidate FILE`);
      // a new one is the file the app read it from, else entered in the app.
      const sourceOf = (spec: unknown, file: string | undefined) =>
        kept.flatMap((k) => (k.kind === 'spec' && JSON.stringify(k.spec) === JSON.stringify(spec) ? [k.source] : []))[0] ??
        (file ? `file ${file} chosen in the app` : 'entered in the app');
      const given = candidates.map((c): CandidateInput =>
        c.kind === 'spec' ? { kind: 'spec', spec: c.spec, source: sourceOf(c.spec, c.file) } : c,
      );
      // The one path of `assess set --candidate`: all checked before anything is kept.
      await forecastCall(async () => libraryCall(() => keepAssessmentCandidates(library, id, given)));
      return getAssessmentOrFail(library, id);
    },
    'assessments.candidates': async ({ id }) => {
      const library = need(backend, 'library');
      const assessment = usableAssessmentOf(library, id);
      const cpu = await thisCpu();
      // What `assess show --json` prints as candidatesForecast.
      return forecastCall(async () => assessmentForecast(library, assessment, cpu));
    },
    'fleet.compare': async ({ runIds }) => fleetOf(backend, runIds),
    'fleet.report': async ({ runIds, format, paper, unit }) => {
      const { fleet } = fleetOf(backend, runIds);
      if (!fleet) throw new ApiFailure('NOT_FOUND', NO_FLEET);
      const html = need(backend, 'reportHtml');
      const printer = format === 'pdf' ? need(backend, 'printer') : null;
      const { renderFleetReport } = await import('../../shared/report/print.ts');
      try {
        const report = await renderFleetReport(fleet, { format, paper, unit, appVersion: backend.appVersion }, { html, printer });
        return { fileName: report.fileName, mimeType: report.mimeType, contentBase64: Buffer.from(report.bytes).toString('base64') };
      } catch (error) {
        if (error instanceof ReportPrintError) throw new ApiFailure('FAILED', error.message);
        throw error;
      }
    },
  };
}

const NO_FLEET =
  'no fleet runs among these: run "diskdelta fleet run --hosts FILE --folder DIR" or import a fio --client JSON file (one run per host)';

/** The library's fleet measurements, and the compare of runIds (default: every fleet run). */
function fleetOf(backend: Backend, runIds: number[] | undefined): ProcedureOutput<'fleet.compare'> {
  const library = need(backend, 'library');
  const all = fleetRunsOf(library);
  const wanted = runIds ? new Set(runIds) : null;
  const runs = wanted ? all.filter((r) => r.id !== undefined && wanted.has(r.id)) : all;
  return { groups: fleetGroups(all), fleet: runs.length === 0 ? null : compareFleet(runs) };
}

/** The report of these runs as a file: the one path of report.render and assessments.report. */
async function renderFile(
  backend: Backend,
  records: RunRecord[],
  options: Pick<RenderOptions, 'format' | 'paper' | 'unit' | 'assessment' | 'forecast' | 'judged'>,
): Promise<ProcedureOutput<'report.render'>> {
  const html = need(backend, 'reportHtml');
  const printer = options.format === 'pdf' ? need(backend, 'printer') : null;
  const { renderReport } = await import('../../shared/report/print.ts');
  try {
    // The stored cipher ceilings of this CPU, as Compare shows them: the same forecasts in print.
    const ceilings = (await backend.crypto?.ciphers(false)) ?? null;
    const report = await renderReport(records, { ...options, appVersion: backend.appVersion, ceilings }, { html, printer });
    return { fileName: report.fileName, mimeType: report.mimeType, contentBase64: Buffer.from(report.bytes).toString('base64') };
  } catch (error) {
    if (error instanceof ReportInputError) throw new ApiFailure('BAD_INPUT', error.message);
    if (error instanceof ReportPrintError) throw new ApiFailure('FAILED', error.message);
    throw error;
  }
}

/** The forecast of candidates the app sends (spec sheets' fields, or runs), as forecast.candidates and the reports compute it. */
async function appForecast(
  backend: Backend,
  candidates: ReadonlyArray<{ kind: 'spec'; spec: unknown } | { kind: 'run'; id: number }>,
  options: { current?: number | undefined; encrypt?: boolean | undefined } = {},
): Promise<{ forecast: Forecast; notes: string[] }> {
  const given = candidates.map((c, i): CandidateInput =>
    c.kind === 'spec' ? { kind: 'spec', spec: c.spec, source: `entered in the app (candidate ${i + 1})` } : c,
  );
  return forecastCall(async () => forecastFromLibrary(need(backend, 'library'), { candidates: given, ...options }, await thisCpu()));
}

/** The forecast's refusals as the app's codes: a refused spec sheet or run is BAD_INPUT, each field named. */
async function forecastCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ForecastError)) throw error;
    const message = error.about ? `${error.about.as} run ${error.about.id}: ${error.message}` : error.message;
    throw new ApiFailure(error.kind === 'input' ? 'BAD_INPUT' : error.kind === 'missing' ? 'NOT_FOUND' : 'FAILED', message);
  }
}

/** The assessment as it may be used: a step whose stored run no longer fits its role (or cannot be read) is never used (#39). */
function usableAssessmentOf(library: LibraryPort, id: number): Assessment {
  const stored = getAssessmentOrFail(library, id);
  const storedIds = assessmentRunIds(stored);
  const { runs } = library.readRuns(storedIds);
  return usableAssessment(stored, new Map(storedIds.map((runId, i) => [runId, runs[i] ?? null]))).assessment;
}

function getAssessmentOrFail(library: LibraryPort, id: number): Assessment {
  // A row the library can no longer read is said as it is (FAILED, with what to do), not as INTERNAL.
  const assessment = libraryCall(() => library.getAssessment(id));
  if (!assessment) throw new ApiFailure('NOT_FOUND', `no assessment ${id} in the library`);
  return assessment;
}

/**
 * A library refusal (a run id that is not there, a run that does not fit its assessment step, a
 * read-only file) is the user's to fix: said as it is, not as INTERNAL.
 */
function libraryCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    if (error instanceof LibraryError)
      throw new ApiFailure(error.code === 'invalid' || error.code === 'wrong-role' ? 'BAD_INPUT' : 'FAILED', error.message);
    throw error;
  }
}

/**
 * The library run id of each step: a library run as given (updateAssessment checks it exists),
 * a shipped reference kept in the library first (once: importRuns finds it by its label).
 */
async function stepRunIds(
  backend: Backend,
  steps: Partial<Record<AssessmentField, RunRef | null>>,
): Promise<Partial<Record<AssessmentField, number | null>>> {
  const ids: Partial<Record<AssessmentField, number | null>> = {};
  for (const [field, ref] of Object.entries(steps) as Array<[AssessmentField, RunRef | null | undefined]>) {
    if (ref === undefined) continue;
    if (ref === null || ref.kind === 'run') {
      ids[field] = ref === null ? null : ref.id;
      continue;
    }
    const { record } = (await loadRefs(backend, [ref]))[0]!;
    const library = need(backend, 'library');
    ids[field] = libraryCall(() => library.importRuns([{ run: record, fingerprint: `reference:${ref.key}` }]))[0]!.id;
  }
  return ids;
}

/** Library runs and shipped reference runs, in the order asked. */
async function loadRefs(backend: Backend, refs: RunRef[]): Promise<Array<{ ref: RunRef; record: RunRecord }>> {
  const loaded: Array<{ ref: RunRef; record: RunRecord }> = [];
  let references: Array<{ key: string; record: RunRecord }> | null = null;
  for (const ref of refs) {
    if (ref.kind === 'run') {
      loaded.push({ ref, record: await getOrFail(need(backend, 'library'), ref.id) });
    } else {
      references ??= await need(backend, 'formats').references();
      const found = references.find((r) => r.key === ref.key);
      if (!found) throw new ApiFailure('NOT_FOUND', `no reference run '${ref.key}'`);
      loaded.push({ ref, record: found.record });
    }
  }
  return loaded;
}
