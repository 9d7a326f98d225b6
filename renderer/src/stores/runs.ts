// Runs in progress and just finished: fed by the backend's events (already coalesced to
// ≤ 10/s in the main process), so the Live run page re-renders at that pace at most.
import { createStore } from 'zustand/vanilla';
import type { ApiError, EventPayload, ProcedureInput } from '../../../electron/core/api/contract.ts';
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
  cancel(runId: string): Promise<void>;
  loadActive(): Promise<void>;
}

/** A live chart needs the shape, not every point: older samples are dropped beyond this. */
export const MAX_LIVE_SAMPLES = 3000;

export function createRunsStore(client: ApiClient, hooks: { onFinished?: (runId: string) => void } = {}) {
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
      set((s) => ({
        starting: false,
        currentRunId: runId,
        runs: { ...s.runs, [runId]: s.runs[runId] ?? newRun(runId, spec, new Date().toISOString()) },
      }));
      return runId;
    },
    async cancel(runId) {
      update(runId, (r) => (r.status === 'running' ? { ...r, status: 'cancelling' } : r));
      const result = await client.call('runs.cancel', { runId });
      if (!result.ok) update(runId, (r) => ({ ...r, error: result.error }));
    },
    async loadActive() {
      const result = await client.call('runs.active', {});
      if (!result.ok) return;
      set((s) => {
        const runs = { ...s.runs };
        for (const a of result.data) runs[a.runId] ??= newRun(a.runId, a.spec, a.startedAt);
        const current = s.currentRunId ?? result.data[0]?.runId ?? null;
        return { runs, currentRunId: current };
      });
    },
  }));

  function update(runId: string, change: (run: LiveRun) => LiveRun) {
    store.setState((s) => {
      // Events can arrive before runs.start has answered: the run is created on first sight.
      const run = s.runs[runId] ?? newRun(runId, { target: '' }, new Date().toISOString());
      return { runs: { ...s.runs, [runId]: change(run) } };
    });
  }

  client.on('run.progress', ({ runId, ...progress }) =>
    update(runId, (r) => ({
      ...r,
      progress,
      tests: progress.test && !r.tests.includes(progress.test) ? [...r.tests, progress.test] : r.tests,
    })),
  );
  client.on('run.samples', ({ runId, samples }) =>
    update(runId, (r) => {
      const all = r.samples.concat(samples);
      return { ...r, samples: all.length > MAX_LIVE_SAMPLES ? all.slice(all.length - MAX_LIVE_SAMPLES) : all };
    }),
  );
  client.on('run.warning', ({ runId, code, message }) => update(runId, (r) => ({ ...r, warnings: [...r.warnings, { code, message }] })));
  client.on('run.finished', ({ runId, status, recordId, error }) => {
    update(runId, (r) => ({ ...r, status, recordId, error }));
    hooks.onFinished?.(runId);
  });
  return store;
}

function newRun(runId: string, spec: ProcedureInput<'runs.start'>, startedAt: string): LiveRun {
  return { runId, spec, startedAt, status: 'running', progress: null, tests: [], samples: [], warnings: [], recordId: null, error: null };
}
