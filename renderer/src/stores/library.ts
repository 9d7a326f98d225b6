// The results library: list with filters, relabel, delete, import, export.
import { createStore } from 'zustand/vanilla';
import type { ApiError, ProcedureInput, RunSummary } from '../../../electron/shared/contract/contract.ts';
import { DEFAULT_LIST_PAGE, MAX_LIST_PAGE } from '../../../electron/shared/model/list-page.ts';
import type { Warning } from '../../../electron/shared/model/results.ts';
import { isUnreadableRun, readableRuns, type UnreadableRunSummary } from '../../../electron/shared/model/run-summary.ts';
import type { ApiClient } from '../api/client.ts';
import { latestCall } from './latest-call.ts';
import { MAX_IMPORT_BYTES } from '../../../electron/shared/model/import-limits.ts';
import { formatBytes } from '../../../electron/shared/analysis/units.ts';

/** A file picked for import: its bytes are only read (and sent) when it is within the limit. */
export interface ImportPick {
  name: string;
  sizeBytes: number;
  read(): Promise<string>;
}

export type LibraryFilter = ProcedureInput<'library.list'>;

export interface ImportOutcome {
  fileName: string;
  ids: number[];
  /** Runs of this file the library already kept (not saved again), and why. */
  alreadyPresent: Array<{ id: number; why: string }>;
  warnings: Warning[];
  error: ApiError | null;
}

export interface LibraryState {
  /** Newest first. */
  runs: RunSummary[];
  /** Rows of the page the library can no longer read (run-list-row.ts): named with what is wrong, never used. */
  unreadable: UnreadableRunSummary[];
  /** How many of the newest runs are asked for; showMore() raises it. */
  pageSize: number;
  /** Older runs exist beyond the page. */
  more: boolean;
  showMore(): Promise<void>;
  filter: LibraryFilter;
  loading: boolean;
  loaded: boolean;
  error: ApiError | null;
  selected: number[];
  lastImport: ImportOutcome[];
  load(): Promise<void>;
  setFilter(patch: Partial<LibraryFilter>): Promise<void>;
  toggleSelected(id: number): void;
  clearSelection(): void;
  relabel(id: number, label: string): Promise<boolean>;
  remove(id: number): Promise<boolean>;
  importFiles(files: ImportPick[]): Promise<ImportOutcome[]>;
  exportRuns(ids: number[], format: 'json' | 'csv'): Promise<{ fileName: string; mimeType: string; content: string } | null>;
}

/** Empty filter fields mean "no filter": they are dropped rather than sent as ''. */
export function cleanFilter(filter: LibraryFilter): LibraryFilter {
  return Object.fromEntries(Object.entries(filter).filter(([, v]: [string, unknown]) => v !== undefined && v !== ''));
}

export function createLibraryStore(client: ApiClient) {
  const loadTicket = latestCall();
  return createStore<LibraryState>()((set, get) => ({
    runs: [],
    unreadable: [],
    pageSize: DEFAULT_LIST_PAGE,
    more: false,
    filter: {},
    loading: false,
    loaded: false,
    error: null,
    selected: [],
    lastImport: [],
    async load() {
      const isNewest = loadTicket();
      set({ loading: true });
      // One more than the page: its presence says that older runs exist.
      const pageSize = get().pageSize;
      const result = await client.call('library.list', { ...cleanFilter(get().filter), limit: Math.min(pageSize + 1, MAX_LIST_PAGE) });
      if (!isNewest()) return;
      if (result.ok) {
        const more = result.data.length > pageSize;
        // The API lists a page oldest first (a terminal's list ends at the prompt); the Library
        // shows newest first, so the run just measured or imported is at the top, not the bottom of 500.
        const page = (more ? result.data.slice(result.data.length - pageSize) : result.data).toReversed();
        const runs = readableRuns(page);
        const unreadable = page.filter(isUnreadableRun);
        const ids = new Set(runs.map((r) => r.id));
        set({ runs, unreadable, more, loading: false, loaded: true, error: null, selected: get().selected.filter((id) => ids.has(id)) });
      } else {
        set({ loading: false, loaded: true, error: result.error });
      }
    },
    async showMore() {
      set({ pageSize: Math.min(get().pageSize + DEFAULT_LIST_PAGE, MAX_LIST_PAGE - 1) });
      await get().load();
    },
    async setFilter(patch) {
      set({ filter: { ...get().filter, ...patch } });
      await get().load();
    },
    toggleSelected(id) {
      const selected = get().selected;
      set({ selected: selected.includes(id) ? selected.filter((x) => x !== id) : [...selected, id] });
    },
    clearSelection() {
      set({ selected: [] });
    },
    async relabel(id, label) {
      const result = await client.call('library.relabel', { id, label });
      if (!result.ok) {
        set({ error: result.error });
        return false;
      }
      set({ runs: get().runs.map((r) => (r.id === id ? { ...r, label: result.data.label } : r)), error: null });
      return true;
    },
    async remove(id) {
      const result = await client.call('library.delete', { id });
      if (!result.ok) {
        set({ error: result.error });
        return false;
      }
      set({
        runs: get().runs.filter((r) => r.id !== id),
        unreadable: get().unreadable.filter((r) => r.id !== id),
        selected: get().selected.filter((x) => x !== id),
        error: null,
      });
      return result.data.deleted;
    },
    async importFiles(files) {
      const outcomes: ImportOutcome[] = [];
      for (const file of files) {
        // Checked before reading: a file over the limit would be read whole, then refused by
        // the server's frame limit with nothing said to the user.
        if (file.sizeBytes > MAX_IMPORT_BYTES) {
          const message = `the file is ${formatBytes(file.sizeBytes)}; imports are limited to ${formatBytes(MAX_IMPORT_BYTES)} (no benchmark report is that large)`;
          outcomes.push({ fileName: file.name, ids: [], alreadyPresent: [], warnings: [], error: { code: 'IMPORT_FAILED', message } });
          continue;
        }
        const result = await client.call('library.import', { fileName: file.name, contentBase64: await file.read() });
        outcomes.push(
          result.ok
            ? {
                fileName: file.name,
                ids: result.data.ids,
                alreadyPresent: result.data.alreadyPresent,
                warnings: result.data.warnings,
                error: null,
              }
            : { fileName: file.name, ids: [], alreadyPresent: [], warnings: [], error: result.error },
        );
      }
      set({ lastImport: outcomes });
      await get().load();
      return outcomes;
    },
    async exportRuns(ids, format) {
      const result = await client.call('library.export', { ids, format });
      if (!result.ok) {
        set({ error: result.error });
        return null;
      }
      return result.data;
    },
  }));
}
