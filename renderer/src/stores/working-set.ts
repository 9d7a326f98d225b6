// The Working set page's slice: the kept scans (runs holding a working-set result, whatever
// their label), newest first, and the SSD size the verdict is said against.
import { createStore } from 'zustand/vanilla';
import { readableRuns } from '../../../electron/shared/model/run-summary.ts';
import type { ApiError } from '../../../electron/shared/contract/contract.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
import { WORKING_SET_TEST } from '../../../electron/shared/analysis/working-set.ts';
import type { ApiClient } from '../api/client.ts';
import { latestCall } from './latest-call.ts';

/** Scans shown: enough for "this month against the last few". */
export const SCANS_SHOWN = 6;

export interface WorkingSetState {
  scans: RunRecord[];
  loading: boolean;
  error: ApiError | null;
  /** Decimal GB, as drives are sold; null: no SSD in mind yet. */
  ssdGb: number | null;
  setSsdGb(gb: number | null): void;
  load(): Promise<void>;
}

export function createWorkingSetStore(client: ApiClient) {
  const loadTicket = latestCall();
  return createStore<WorkingSetState>()((set) => ({
    scans: [],
    loading: false,
    error: null,
    ssdGb: null,
    setSsdGb: (ssdGb) => set({ ssdGb }),
    async load() {
      const isNewest = loadTicket();
      set({ loading: true, error: null });
      const list = await client.call('library.list', { test: WORKING_SET_TEST, limit: SCANS_SHOWN });
      if (!isNewest()) return;
      if (!list.ok) return set({ loading: false, error: list.error });
      const records: RunRecord[] = [];
      // A row the library can no longer read is named on the Library page; the scans are the others.
      for (const summary of readableRuns(list.data).reverse()) {
        const got = await client.call('library.get', { id: summary.id });
        if (!isNewest()) return;
        if (!got.ok) return set({ loading: false, error: got.error });
        records.push(got.data);
      }
      set({ scans: records, loading: false });
    },
  }));
}
