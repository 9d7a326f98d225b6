// The guided assessment's slice (Overview's "Assess an upgrade"): the assessments the library
// keeps, the one open, its steps set by picking a run (library or shipped reference) or by
// measuring now. State that must outlive a reload is the library's (assessments.* procedures);
// only a run started from a step and not yet finished is held here, and attached when it ends.
import { createStore, type StoreApi } from 'zustand/vanilla';
import type {
  ApiError,
  AssessmentData,
  AssessmentListData,
  ProcedureInput,
  ProcedureOutput,
  RunRef,
} from '../../../electron/shared/contract/contract.ts';
import type { AssessmentField } from '../../../electron/shared/model/assessment.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
import { runFacts, type RunFacts } from '../../../electron/shared/model/assessment-roles.ts';
import type { Paper } from '../../../electron/shared/report/paper.ts';
import type { ApiClient } from '../api/client.ts';
import type { RunsState } from './runs.ts';
import { base64ToBytes, type ReportFormat, type SavedReport } from './report.ts';

/** A run started from a step: attached to that step of that assessment when it finishes. */
export interface PendingStep {
  assessmentId: number;
  runId: string;
}

export interface AssessmentState {
  /** An assessment the library can no longer read is listed with what is wrong with it, and never opened. */
  list: AssessmentListData[];
  loaded: boolean;
  /** The shipped reference runs a step can pick (kept in the library when picked). */
  references: Array<{ key: string; label: string; createdAt: string; facts: RunFacts }>;
  /** The shipped references' records: the published story beside a reference's after run (analysis/verdicts.ts). */
  referenceRecords: RunRecord[];
  error: ApiError | null;
  /** The assessment the flow shows. */
  current: AssessmentData | null;
  /** A step being set (its first field), for the busy state of its buttons. */
  busy: AssessmentField | null;
  /** Why the last change to a step failed, by step (its first field). */
  stepErrors: Partial<Record<AssessmentField, ApiError>>;
  pending: Partial<Record<AssessmentField, PendingStep>>;
  saving: ReportFormat | null;
  reportError: ApiError | null;
  /** Runs a step shows more of than its label (the working-set scan's verdict), by id. */
  records: Record<number, RunRecord>;
  load(): Promise<void>;
  /** Reads a step's run once (a run's record does not change; a deleted one is simply not shown). */
  loadRecord(id: number): Promise<void>;
  loadReferences(): Promise<void>;
  open(id: number): Promise<void>;
  /** A new assessment; its id, or null (the error is in the state). */
  start(label: string): Promise<number | null>;
  /** Sets the steps given on the open assessment; `key` names the step for its busy state and error. */
  setSteps(key: AssessmentField, steps: Partial<Record<AssessmentField, RunRef | null>>): Promise<boolean>;
  /** Starts a run for a step through the runs slice (so Live run shows it); its record is the step's when it is done. */
  measure(field: AssessmentField, spec: ProcedureInput<'runs.start'>): Promise<string | null>;
  saveReport(format: ReportFormat, paper: Paper): Promise<SavedReport | null>;
  /** The open assessment's candidates forecast (and judged once the after run is set), as `assess show --json` says it. */
  candidates: { id: number; updatedAt: string; data: ProcedureOutput<'assessments.candidates'> } | null;
  candidatesBusy: boolean;
  /** Why the candidates given were not kept (setCandidates refused them). */
  candidatesError: ApiError | null;
  /** Why the kept candidates' forecast could not be made (loadCandidates failed): nothing was refused. */
  candidatesLoadError: ApiError | null;
  /** Asks core for the open assessment's candidates forecast (again once the assessment changed). */
  loadCandidates(): Promise<void>;
  /** Keeps these candidates with the open assessment (all of them: the list replaces the kept one); false if refused. */
  setCandidates(candidates: ProcedureInput<'assessments.setCandidates'>['candidates']): Promise<boolean>;
}

export function createAssessmentStore(client: ApiClient, runs: StoreApi<RunsState>) {
  /** The assessment and version whose candidates' forecast is being asked for; null: none. */
  let loadingCandidates: string | null = null;
  const store = createStore<AssessmentState>()((set, get) => {
    const stepFailed = (key: AssessmentField, error: ApiError) =>
      set((s) => ({ busy: null, stepErrors: { ...s.stepErrors, [key]: error } }));
    const stepDone = (key: AssessmentField, a: AssessmentData) =>
      set((s) => {
        const { [key]: _cleared, ...stepErrors } = s.stepErrors;
        return { busy: null, current: s.current?.id === a.id ? a : s.current, stepErrors, list: replaced(s.list, a) };
      });
    return {
      list: [],
      loaded: false,
      references: [],
      referenceRecords: [],
      error: null,
      current: null,
      busy: null,
      stepErrors: {},
      pending: {},
      saving: null,
      reportError: null,
      records: {},
      candidates: null,
      candidatesBusy: false,
      candidatesError: null,
      candidatesLoadError: null,
      async loadCandidates() {
        const current = get().current;
        if (!current) return;
        const have = get().candidates;
        if (have && have.id === current.id && have.updatedAt === current.updatedAt) return;
        // setCandidates and the card's effect both ask once the assessment changed: one forecast is computed.
        const key = `${current.id}@${current.updatedAt}`;
        if (loadingCandidates === key) return;
        loadingCandidates = key;
        const result = await client.call('assessments.candidates', { id: current.id }).finally(() => {
          if (loadingCandidates === key) loadingCandidates = null;
        });
        // An answer for an assessment no longer shown (or since changed) is dropped.
        if (get().current?.id !== current.id || get().current?.updatedAt !== current.updatedAt) return;
        if (result.ok) set({ candidates: { id: current.id, updatedAt: current.updatedAt, data: result.data }, candidatesLoadError: null });
        else set({ candidates: null, candidatesLoadError: result.error });
      },
      async setCandidates(candidates) {
        const current = get().current;
        if (!current || get().candidatesBusy) return false;
        set({ candidatesBusy: true, candidatesError: null });
        const result = await client.call('assessments.setCandidates', { id: current.id, candidates });
        if (!result.ok) {
          set({ candidatesBusy: false, candidatesError: result.error });
          return false;
        }
        set((s) => ({
          candidatesBusy: false,
          current: s.current?.id === result.data.id ? result.data : s.current,
          list: replaced(s.list, result.data),
        }));
        await get().loadCandidates();
        return true;
      },
      async load() {
        const result = await client.call('assessments.list', {});
        if (result.ok) set({ list: result.data, loaded: true, error: null });
        else set({ loaded: true, error: result.error });
      },
      async loadRecord(id) {
        if (get().records[id]) return;
        const result = await client.call('library.get', { id });
        if (result.ok) set((s) => ({ records: { ...s.records, [id]: result.data } }));
      },
      async loadReferences() {
        if (get().references.length > 0) return;
        const result = await client.call('references.list', {});
        if (result.ok)
          set({
            // Its facts (kind, source, dm-crypt, publication): a step's picker offers it only where it fits (#39).
            references: result.data.map((r) => ({
              key: r.key,
              label: r.record.label,
              createdAt: r.record.createdAt,
              facts: runFacts(r.record),
            })),
            referenceRecords: result.data.map((r) => r.record),
          });
      },
      async open(id) {
        // Another assessment's step errors and report error are not this one's.
        if (get().current?.id !== id)
          set({ current: null, stepErrors: {}, reportError: null, candidates: null, candidatesError: null, candidatesLoadError: null });
        const result = await client.call('assessments.get', { id });
        if (result.ok) set({ current: result.data, error: null });
        else set({ current: null, error: result.error });
      },
      async start(label) {
        const result = await client.call('assessments.start', { label });
        if (!result.ok) {
          set({ error: result.error });
          return null;
        }
        set((s) => ({ error: null, current: result.data, stepErrors: {}, reportError: null, list: replaced(s.list, result.data) }));
        return result.data.id;
      },
      async setSteps(key, steps) {
        const current = get().current;
        if (!current || get().busy) return false;
        set({ busy: key });
        const result = await client.call('assessments.set', { id: current.id, steps });
        if (!result.ok) {
          stepFailed(key, result.error);
          return false;
        }
        stepDone(key, result.data);
        return true;
      },
      async measure(field, spec) {
        const current = get().current;
        if (!current) return null;
        const runId = await runs.getState().start(spec);
        if (!runId) {
          const error = runs.getState().startError;
          if (error) stepFailed(field, error);
          return null;
        }
        set((s) => {
          const { [field]: _cleared, ...stepErrors } = s.stepErrors;
          return { pending: { ...s.pending, [field]: { assessmentId: current.id, runId } }, stepErrors };
        });
        // Its end may have come before runs.start answered (a very short run).
        const seen = runs.getState().runs[runId];
        if (seen && seen.status !== 'running' && seen.status !== 'cancelling') finished(runId, seen.status, seen.recordId, seen.error);
        return runId;
      },
      async saveReport(format, paper) {
        const current = get().current;
        if (!current || get().saving) return null;
        set({ saving: format, reportError: null });
        const result = await client.call('assessments.report', { id: current.id, format, paper, unit: 'MB' });
        if (!result.ok) {
          set({ saving: null, reportError: result.error });
          return null;
        }
        set({ saving: null });
        return { fileName: result.data.fileName, mimeType: result.data.mimeType, bytes: base64ToBytes(result.data.contentBase64) };
      },
    };
  });

  // A step's run ends: done, its record becomes the step (even if another assessment is open
  // now); failed or cancelled, the step says why and stays as it was.
  function finished(runId: string, status: 'done' | 'cancelled' | 'failed', recordId: number | null, error: ApiError | null) {
    const entry = (Object.entries(store.getState().pending) as Array<[AssessmentField, PendingStep]>).find(([, p]) => p.runId === runId);
    if (!entry) return;
    const [field, { assessmentId }] = entry;
    store.setState((s) => {
      const { [field]: _done, ...pending } = s.pending;
      return { pending };
    });
    if (status !== 'done' || recordId === null) {
      const why: ApiError = error ?? { code: 'CANCELLED', message: 'the run was cancelled: nothing was added to the step' };
      store.setState((s) => ({ stepErrors: { ...s.stepErrors, [field]: why } }));
      return;
    }
    void client.call('assessments.set', { id: assessmentId, steps: { [field]: { kind: 'run', id: recordId } } }).then((result) => {
      if (!result.ok) store.setState((s) => ({ stepErrors: { ...s.stepErrors, [field]: result.error } }));
      else
        store.setState((s) => ({
          current: s.current?.id === assessmentId ? result.data : s.current,
          list: replaced(s.list, result.data),
        }));
    });
  }
  client.on('run.finished', ({ runId, status, recordId, error }) => finished(runId, status, recordId, error));
  return store;
}

/** The list with this assessment in it, newest change first (as the library lists them). */
function replaced(list: AssessmentListData[], a: AssessmentData): AssessmentListData[] {
  return [a, ...list.filter((x) => x.id !== a.id)];
}
