// Runs in progress and just finished: fed by the backend's events (already coalesced to
// ≤ 10/s in the main process), so the Live run page re-renders at that pace at most.
import { createStore } from 'zustand/vanilla';
import type { ApiError, EventPayload, ProcedureInput, ProcedureOutput } from '../../../electron/shared/contract/contract.ts';
import type { ApiClient } from '../api/client.ts';

export type LiveSample = EventPayload<'run.samples'>['samples'][number];
export type Progress = Omit<EventPayload<'run.progress'>, 'runId'>;

export interface LiveRun {
  runId: string;
  spec: ProcedureInput<'runs.start'>;
  startedAt: string;
  status: 'running' | 'cancelling' | 'done' | 'cancelled' | 'failed';
  progress: Progress | null;
  /** Tests in the order they started, for the per-test list. */
  tests: string[];
  samples: LiveSample[];
  warnings: Array<{ code: string; message: string }>;
  recordId: number | null;
  error: ApiError | null;
}

export interface RunsState {
  runs: Record<string, LiveRun>;
  /** The run the Live run page shows. */
  currentRunId: string | null;
  startError: ApiError | null;
  starting: boolean;
  start(spec: ProcedureInput<'runs.start'>): Promise<string | null>;
  /** keepFinished: keep the tests that had finished, marked as cut short. */
  cancel(runId: string, keepFinished?: boolean): Promise<void>;
  loadActive(): Promise<void>;
}

/** A live chart needs the shape, not every point: older samples are dropped beyond this. */
export const MAX_LIVE_SAMPLES = 3000;

/** Ends of runs this tab did not know when they were heard: enough for its own starts in flight. */
const ENDS_KEPT = 16;

export function createRunsStore(client: ApiClient, hooks: { onFinished?: (runId: string) => void } = {}) {
  const endsHeard = new Map<string, Pick<LiveRun, 'status' | 'recordId' | 'error'>>();
  const store = createStore<RunsState>()((set) => ({
    runs: {},
    currentRunId: null,
    startError: null,
    starting: false,
    async start(spec) {
      set({ starting: true, startError: null });
      const result = await client.call('runs.start', spec);
      if (!result.ok) {
        set({ starting: false, startError: result.error });
        return null;
      }
      const { runId } = result.data;
      // A short run can end before this answer arrives (a small folder's scan sends no progress
      // first): its end was heard for a run this tab did not know yet, and is applied now.
      const end = endsHeard.get(runId);
      endsHeard.delete(runId);
      set((s) => {
        // Its first events may have come first and made the run without its spec (adopt).
        const run = withSpec(s.runs[runId], runId, spec);
        return { starting: false, currentRunId: runId, runs: { ...s.runs, [runId]: end ? { ...run, ...end } : run } };
      });
      return runId;
    },
    async cancel(runId, keepFinished = false) {
      update(runId, (r) => (r.status === 'running' ? { ...r, status: 'cancelling' } : r));
      const result = await client.call('runs.cancel', keepFinished ? { runId, keepFinished } : { runId });
      if (!result.ok) update(runId, (r) => ({ ...r, error: result.error }));
    },
    async loadActive() {
      const result = await client.call('runs.active', {});
      if (!result.ok) return;
      set((s) => {
        const runs = { ...s.runs };
        // What the run told before this tab saw it (or before a reload), merged with what it has seen since.
        for (const a of result.data) runs[a.runId] = withSoFar(runs[a.runId] ?? newRun(a.runId, a.spec, a.startedAt), a);
        // The run shown stays while it goes on; once it has ended, a run going on takes its place.
        const shown = s.currentRunId ? runs[s.currentRunId] : undefined;
        const going = shown && (shown.status === 'running' || shown.status === 'cancelling');
        return { runs, currentRunId: going ? s.currentRunId : (result.data[0]?.runId ?? s.currentRunId) };
      });
    },
  }));

  /** A run this tab hears of first by an event (it started in another tab): shown, and asked for whole. */
  function adopt(runId: string) {
    const s = store.getState();
    if (s.runs[runId]) return;
    const current = s.currentRunId ? s.runs[s.currentRunId] : undefined;
    const showing = current && (current.status === 'running' || current.status === 'cancelling');
    store.setState({
      runs: { ...s.runs, [runId]: newRun(runId, { target: '' }, new Date().toISOString()) },
      ...(showing ? {} : { currentRunId: runId }),
    });
    void store.getState().loadActive();
  }

  function update(runId: string, change: (run: LiveRun) => LiveRun) {
    adopt(runId);
    store.setState((s) => ({ runs: { ...s.runs, [runId]: change(s.runs[runId]!) } }));
  }

  client.on('run.progress', ({ runId, ...progress }) =>
    update(runId, (r) => ({
      ...r,
      progress,
      tests: progress.test && !r.tests.includes(progress.test) ? [...r.tests, progress.test] : r.tests,
    })),
  );
  client.on('run.samples', ({ runId, samples }) => update(runId, (r) => ({ ...r, samples: appendSamples(r.samples, samples) })));
  client.on('run.warning', ({ runId, code, message }) =>
    update(runId, (r) => ({ ...r, warnings: mergeWarnings(r.warnings, [{ code, message }]) })),
  );
  client.on('run.finished', ({ runId, status, recordId, error }) => {
    // The end of a run this tab never saw going on is nothing to show, unless it is this tab's
    // own run whose start has not been answered yet: kept (the newest few) for start() to apply.
    if (store.getState().runs[runId]) update(runId, (r) => ({ ...r, status, recordId, error }));
    else {
      endsHeard.set(runId, { status, recordId, error });
      for (const old of endsHeard.keys()) if (endsHeard.size > ENDS_KEPT) endsHeard.delete(old);
    }
    hooks.onFinished?.(runId);
  });
  return store;
}

function withSpec(run: LiveRun | undefined, runId: string, spec: ProcedureInput<'runs.start'>): LiveRun {
  if (!run) return newRun(runId, spec, new Date().toISOString());
  return run.spec.target ? run : { ...run, spec };
}

function newRun(runId: string, spec: ProcedureInput<'runs.start'>, startedAt: string): LiveRun {
  return { runId, spec, startedAt, status: 'running', progress: null, tests: [], samples: [], warnings: [], recordId: null, error: null };
}

type ActiveRun = ProcedureOutput<'runs.active'>[number];

/**
 * A run with what the backend says it told so far. A tab opened during the run has seen only
 * the events since; the snapshot brings the tests and samples before, and the events that
 * cross it in flight are dropped as duplicates, not drawn twice.
 */
export function withSoFar(run: LiveRun, active: ActiveRun): LiveRun {
  const tests = [...active.tests, ...run.tests.filter((t) => !active.tests.includes(t))];
  return {
    ...run,
    // A run first heard of by an event has no spec yet (no target): the backend's is the one.
    spec: run.spec.target ? run.spec : active.spec,
    startedAt: run.spec.target ? run.startedAt : active.startedAt,
    progress: run.progress ?? active.progress,
    tests,
    samples: appendSamples(active.samples, run.samples),
    warnings: mergeWarnings(active.warnings, run.warnings),
  };
}

/**
 * Samples appended in order, each test's run once: one already held (same test and run, no
 * later time) is a duplicate from the snapshot. At most MAX_LIVE_SAMPLES, the latest.
 */
export function appendSamples(held: LiveSample[], more: LiveSample[]): LiveSample[] {
  const latest = new Map<string, number>();
  for (const s of held) latest.set(`${s.run}|${s.test}`, Math.max(latest.get(`${s.run}|${s.test}`) ?? -Infinity, s.tMs));
  const fresh = more.filter((s) => {
    const key = `${s.run}|${s.test}`;
    if (s.tMs <= (latest.get(key) ?? -Infinity)) return false;
    latest.set(key, s.tMs);
    return true;
  });
  const all = fresh.length === more.length && held.length === 0 ? more : held.concat(fresh);
  return all.length > MAX_LIVE_SAMPLES ? all.slice(all.length - MAX_LIVE_SAMPLES) : all;
}

function mergeWarnings(held: LiveRun['warnings'], more: LiveRun['warnings']): LiveRun['warnings'] {
  const key = (w: { code: string; message: string }) => `${w.code}|${w.message}`;
  const seen = new Set(held.map(key));
  return [...held, ...more.filter((w) => !seen.has(key(w)))];
}
