// The Compare page's choice of runs (2–6, library runs or references) and display options.
import { createStore } from 'zustand/vanilla';
import { RUN_KINDS, RUN_KIND_WORDS, type RunKind } from '../../../electron/shared/model/run-kind.ts';
import type { ApiError, RunRef, RunSummary } from '../../../electron/shared/contract/contract.ts';
import type { ThroughputUnit } from '../../../electron/shared/analysis/units.ts';
import type { RunRecord } from '../../../electron/shared/model/results.ts';
import type { ApiClient } from '../api/client.ts';
import type { ScaleMode } from '../../../electron/shared/charts/chart-scale.ts';

export const MAX_COMPARED = 6;

export interface CompareState {
  refs: RunRef[];
  records: RunRecord[];
  /** The records on screen with the refs they answer: ticking one more run reuses them. */
  loaded: Array<{ ref: RunRef; record: RunRecord }>;
  references: Array<{ key: string; label: string; createdAt: string }>;
  referencesError: ApiError | null;
  unit: ThroughputUnit;
  /** Chart axes: 'auto' picks a log axis per chart when its bars span ×10 or more. */
  scale: ScaleMode;
  /** Per chart type with a picker (latency, time series …): the id of the chart shown. */
  chartPicks: Record<string, string>;
  loading: boolean;
  error: ApiError | null;
  loadReferences(): Promise<void>;
  toggle(ref: RunRef): void;
  /** A picker line that stands for several copies of one run: untick them all, or tick the first. */
  toggleChoice(refs: RunRef[]): void;
  /** reuse: keep the records already on screen and fetch only the new refs (the picker's own
   *  toggles). Without it everything is fetched again, so a relabel elsewhere shows. */
  setRefs(refs: RunRef[], options?: { reuse?: boolean }): Promise<void>;
  setUnit(unit: ThroughputUnit): void;
  setScale(scale: ScaleMode): void;
  pickChart(type: string, chartId: string): void;
  load(options?: { reuse?: boolean }): Promise<void>;
}

/** One line of the picker's reference column: ticking it adds refs[0]; any of refs ticks it. */
export interface ReferenceChoice {
  label: string;
  refs: RunRef[];
}

/**
 * The picker's two columns. A reference run imported into the library (`import --reference`)
 * is the same published figure as the shipped one: it is listed once, under the references,
 * and either copy being picked ticks that one box (they once showed in both columns, and
 * ticking one copy left the other unticked). A library reference with no shipped twin is
 * still listed there.
 */
export function pickerColumns(
  runs: Array<Pick<RunSummary, 'id' | 'label' | 'createdAt' | 'source' | 'kind'>>,
  references: Array<{ key: string; label: string; createdAt: string }>,
): { own: typeof runs; references: ReferenceChoice[] } {
  const copies = runs.filter((r) => r.source === 'reference');
  const twinOf = (ref: { label: string; createdAt: string }) =>
    copies.filter((r) => r.label === ref.label && Date.parse(r.createdAt) === Date.parse(ref.createdAt));
  const shipped = references.map((ref): ReferenceChoice => ({
    label: ref.label,
    refs: [{ kind: 'reference', key: ref.key }, ...twinOf(ref).map((r): RunRef => ({ kind: 'run', id: r.id }))],
  }));
  const twinned = new Set(shipped.flatMap((c) => c.refs.flatMap((r) => (r.kind === 'run' ? [r.id] : []))));
  const orphans = copies
    .filter((r) => !twinned.has(r.id))
    .map((r): ReferenceChoice => ({ label: r.label, refs: [{ kind: 'run', id: r.id }] }));
  return { own: runs.filter((r) => r.source !== 'reference'), references: [...shipped, ...orphans] };
}

/** Your runs by kind, in RUN_KINDS order (disks first), each group titled: comparable runs together (#39). */
export function runsByKind<R extends Pick<RunSummary, 'kind'>>(runs: readonly R[]): Array<{ kind: RunKind; title: string; runs: R[] }> {
  return RUN_KINDS.flatMap((kind) => {
    const ofKind = runs.filter((r) => r.kind === kind);
    const plural = RUN_KIND_WORDS[kind].plural;
    return ofKind.length ? [{ kind, title: `${plural.charAt(0).toUpperCase()}${plural.slice(1)}`, runs: ofKind }] : [];
  });
}

export function sameRef(a: RunRef, b: RunRef): boolean {
  return a.kind === 'run' ? b.kind === 'run' && a.id === b.id : b.kind === 'reference' && a.key === b.key;
}

export function createCompareStore(client: ApiClient) {
  return createStore<CompareState>()((set, get) => ({
    refs: [],
    records: [],
    loaded: [],
    references: [],
    referencesError: null,
    unit: 'MB',
    scale: 'auto',
    chartPicks: {},
    loading: false,
    error: null,
    async loadReferences() {
      const result = await client.call('references.list', {});
      if (result.ok) {
        set({
          references: result.data.map((r) => ({ key: r.key, label: r.record.label, createdAt: r.record.createdAt })),
          referencesError: null,
        });
      } else {
        set({ referencesError: result.error });
      }
    },
    toggle(ref) {
      const refs = get().refs;
      const next = refs.some((r) => sameRef(r, ref))
        ? refs.filter((r) => !sameRef(r, ref))
        : refs.length < MAX_COMPARED
          ? [...refs, ref]
          : refs;
      void get().setRefs(next, { reuse: true });
    },
    toggleChoice(choice) {
      const refs = get().refs;
      const picked = refs.some((r) => choice.some((c) => sameRef(r, c)));
      if (picked)
        void get().setRefs(
          refs.filter((r) => !choice.some((c) => sameRef(r, c))),
          { reuse: true },
        );
      else if (choice[0]) get().toggle(choice[0]);
    },
    async setRefs(refs, options) {
      set({ refs });
      await get().load(options);
    },
    setUnit: (unit) => set({ unit }),
    setScale: (scale) => set({ scale }),
    pickChart: (type, chartId) => set((s) => ({ chartPicks: { ...s.chartPicks, [type]: chartId } })),
    async load(options) {
      const refs = get().refs;
      if (refs.length < 2) {
        set({ records: [], loaded: [], error: null });
        return;
      }
      const known = options?.reuse ? get().loaded.filter((k) => refs.some((r) => sameRef(r, k.ref))) : [];
      const missing = refs.filter((r) => !known.some((k) => sameRef(k.ref, r)));
      set({ loading: true });
      let fetched: Array<{ ref: RunRef; record: RunRecord }> = [];
      if (missing.length > 0) {
        const result = await client.call('compare.load', { runs: missing });
        // A later selection may have answered first; only the current one is kept.
        if (get().refs !== refs) return;
        if (!result.ok) {
          set({ records: [], loaded: [], loading: false, error: result.error });
          return;
        }
        fetched = result.data.runs;
      }
      const byRef = [...known, ...fetched];
      const loaded = refs.flatMap((r) => byRef.filter((k) => sameRef(k.ref, r)).slice(0, 1));
      set({ loaded, records: loaded.map((l) => l.record), loading: false, error: null });
    },
  }));
}
