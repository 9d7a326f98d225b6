// The Compare page's choice of runs (2–6, library runs or references) and display options.
import { createStore } from 'zustand/vanilla';
import type { ApiError, RunRef } from '../../../electron/core/api/contract.ts';
import type { ThroughputUnit } from '../../../electron/core/analysis/units.ts';
import type { RunRecord } from '../../../electron/core/model/results.ts';
import type { ApiClient } from '../api/client.ts';

export const MAX_COMPARED = 6;

export interface CompareState {
  refs: RunRef[];
  records: RunRecord[];
  references: Array<{ key: string; label: string; createdAt: string }>;
  referencesError: ApiError | null;
  unit: ThroughputUnit;
  logScale: boolean;
  seriesTest: string | null;
  latencyTest: string | null;
  loading: boolean;
  error: ApiError | null;
  loadReferences(): Promise<void>;
  toggle(ref: RunRef): void;
  setRefs(refs: RunRef[]): Promise<void>;
  setUnit(unit: ThroughputUnit): void;
  setLogScale(on: boolean): void;
  setSeriesTest(test: string): void;
  setLatencyTest(test: string): void;
  load(): Promise<void>;
}

export function sameRef(a: RunRef, b: RunRef): boolean {
  return a.kind === 'run' ? b.kind === 'run' && a.id === b.id : b.kind === 'reference' && a.key === b.key;
}

export function createCompareStore(client: ApiClient) {
  return createStore<CompareState>()((set, get) => ({
    refs: [],
    records: [],
    references: [],
    referencesError: null,
    unit: 'MB',
    logScale: false,
    seriesTest: null,
    latencyTest: null,
    loading: false,
    error: null,
    async loadReferences() {
      const result = await client.call('references.list', {});
      if (result.ok) {
        set({ references: result.data.map((r) => ({ key: r.key, label: r.record.label, createdAt: r.record.createdAt })), referencesError: null });
      } else {
        set({ referencesError: result.error });
      }
    },
    toggle(ref) {
      const refs = get().refs;
      const next = refs.some((r) => sameRef(r, ref)) ? refs.filter((r) => !sameRef(r, ref)) : refs.length < MAX_COMPARED ? [...refs, ref] : refs;
      void get().setRefs(next);
    },
    async setRefs(refs) {
      set({ refs });
      await get().load();
    },
    setUnit: (unit) => set({ unit }),
    setLogScale: (logScale) => set({ logScale }),
    setSeriesTest: (seriesTest) => set({ seriesTest }),
    setLatencyTest: (latencyTest) => set({ latencyTest }),
    async load() {
      const refs = get().refs;
      if (refs.length < 2) {
        set({ records: [], error: null });
        return;
      }
      set({ loading: true });
      const result = await client.call('compare.load', { runs: refs });
      // A later selection may have answered first; only the current one is kept.
      if (get().refs !== refs) return;
      if (result.ok) set({ records: result.data.runs.map((r) => r.record), loading: false, error: null });
      else set({ records: [], loading: false, error: result.error });
    },
  }));
}
