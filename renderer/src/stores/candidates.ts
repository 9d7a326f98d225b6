// The Candidates page's slice (issue #42): the 2–4 candidates the person adds (spec sheets typed
// in, checked by the one validator of model/candidate.ts, or disk runs of the library) and the
// forecast of them that core computes (procedure forecast.candidates: the one
// `diskdelta forecast --json` prints). The page never computes a forecast itself.
import { createStore } from 'zustand/vanilla';
import type { ApiError, ProcedureOutput } from '../../../electron/shared/contract/contract.ts';
import { MAX_CANDIDATES, type CandidateSpec } from '../../../electron/shared/model/candidate.ts';
import { readableRuns, type RunSummary } from '../../../electron/shared/model/run-summary.ts';
import type { ApiClient } from '../api/client.ts';
import { latestCall } from './latest-call.ts';

export type CandidateEntry = { key: number; kind: 'spec'; spec: CandidateSpec } | { key: number; kind: 'run'; id: number; label: string };

/** Disk runs offered as measured candidates: the newest page of them. */
const DISK_RUNS_SHOWN = 100;

export interface CandidatesState {
  entries: CandidateEntry[];
  diskRuns: RunSummary[];
  forecast: ProcedureOutput<'forecast.candidates'> | null;
  loading: boolean;
  error: ApiError | null;
  loadRuns(): Promise<void>;
  /** False when MAX_CANDIDATES are already there. */
  add(entry: { kind: 'spec'; spec: CandidateSpec } | { kind: 'run'; id: number; label: string }): boolean;
  remove(key: number): void;
}

export function createCandidatesStore(client: ApiClient) {
  const forecastTicket = latestCall();
  let nextKey = 1;
  return createStore<CandidatesState>()((set, get) => {
    /** The forecast of the candidates now listed, asked of core again after each change. */
    async function refresh() {
      const entries = get().entries;
      const isNewest = forecastTicket();
      if (entries.length === 0) return set({ forecast: null, loading: false, error: null });
      set({ loading: true, error: null });
      const got = await client.call('forecast.candidates', {
        candidates: entries.map((e) => (e.kind === 'spec' ? { kind: 'spec' as const, spec: e.spec } : { kind: 'run' as const, id: e.id })),
      });
      if (!isNewest()) return;
      set(got.ok ? { forecast: got.data, loading: false } : { forecast: null, loading: false, error: got.error });
    }
    return {
      entries: [],
      diskRuns: [],
      forecast: null,
      loading: false,
      error: null,
      async loadRuns() {
        const list = await client.call('library.list', { kind: 'disk', limit: DISK_RUNS_SHOWN });
        if (list.ok) set({ diskRuns: readableRuns(list.data).reverse() });
        else set({ error: list.error });
      },
      add(entry) {
        if (get().entries.length >= MAX_CANDIDATES) return false;
        set({ entries: [...get().entries, { ...entry, key: nextKey++ }] });
        void refresh();
        return true;
      },
      remove(key) {
        set({ entries: get().entries.filter((e) => e.key !== key) });
        void refresh();
      },
    };
  });
}
