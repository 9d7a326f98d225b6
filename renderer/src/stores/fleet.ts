// The Fleet page's slice: the library's fleet measurements (one per `fleet run` or imported
// fio --client file), which of them are chosen, and their fleet compare from the backend.
import { createStore } from 'zustand/vanilla';
import type { ApiError, ProcedureOutput } from '../../../electron/shared/contract/contract.ts';
import type { ThroughputUnit } from '../../../electron/shared/analysis/units.ts';
import type { Paper } from '../../../electron/shared/report/paper.ts';
import type { ApiClient } from '../api/client.ts';
import { base64ToBytes } from '../view/base64.ts';
import { latestCall } from './latest-call.ts';

type FleetAnswer = ProcedureOutput<'fleet.compare'>;

export interface FleetState {
  groups: FleetAnswer['groups'];
  /** The chosen measurements' keys; null: all of them (the newest run of each host). */
  chosen: string[] | null;
  fleet: FleetAnswer['fleet'];
  loaded: boolean;
  loading: boolean;
  error: ApiError | null;
  saving: 'pdf' | 'html' | null;
  load(): Promise<void>;
  toggle(key: string): Promise<void>;
  /** The report file, or null (the error is in the state). */
  saveReport(
    format: 'pdf' | 'html',
    paper: Paper,
    unit: ThroughputUnit,
  ): Promise<{ fileName: string; mimeType: string; bytes: Uint8Array } | null>;
}

export function createFleetStore(client: ApiClient) {
  const runIds = (s: FleetState): number[] | undefined =>
    s.chosen === null ? undefined : s.groups.filter((g) => s.chosen!.includes(g.key)).flatMap((g) => g.runIds);
  const loadTicket = latestCall();
  let asked: { question: string; answer: Promise<void> } | null = null;
  return createStore<FleetState>()((set, get) => ({
    groups: [],
    chosen: null,
    fleet: null,
    loaded: false,
    loading: false,
    error: null,
    saving: null,
    load() {
      const ids = runIds(get());
      const input = ids && ids.length > 0 ? { runIds: ids } : {};
      const question = JSON.stringify(input);
      // The same question already on its way (the app asks it as soon as the route is the
      // Fleet page, while the page's code still loads; the page asks again when it mounts):
      // one answer serves both, and the server reads 1,000 hosts' runs once, not twice.
      if (asked?.question === question) return asked.answer;
      const isNewest = loadTicket();
      const answer = (async () => {
        set({ loading: true });
        const result = await client.call('fleet.compare', input);
        if (!isNewest()) return; // a later choice of measurements was asked since: its answer stands
        if (!result.ok) {
          set({ loading: false, loaded: true, error: result.error });
          return;
        }
        // Measurements gone since (deleted in the Library) are no longer chosen.
        const keys = new Set(result.data.groups.map((g) => g.key));
        const chosen = get().chosen?.filter((k) => keys.has(k)) ?? null;
        set({
          groups: result.data.groups,
          fleet: ids && ids.length === 0 ? null : result.data.fleet,
          chosen,
          loading: false,
          loaded: true,
          error: null,
        });
      })().finally(() => {
        if (asked?.answer === answer) asked = null;
      });
      asked = { question, answer };
      return answer;
    },
    async toggle(key) {
      const s = get();
      const all = s.groups.map((g) => g.key);
      const chosen = s.chosen ?? all;
      const next = chosen.includes(key) ? chosen.filter((k) => k !== key) : [...chosen, key];
      set({ chosen: next.length === all.length ? null : next });
      await get().load();
    },
    async saveReport(format, paper, unit) {
      if (get().saving) return null;
      set({ saving: format, error: null });
      const ids = runIds(get());
      const result = await client.call('fleet.report', { ...(ids ? { runIds: ids } : {}), format, paper, unit });
      if (!result.ok) {
        set({ saving: null, error: result.error });
        return null;
      }
      set({ saving: null });
      return { fileName: result.data.fileName, mimeType: result.data.mimeType, bytes: base64ToBytes(result.data.contentBase64) };
    },
  }));
}
