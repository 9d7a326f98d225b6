// The machine: disks, mounts, suggested targets (Overview page, New run suggestions).
import { createStore } from 'zustand/vanilla';
import type { ApiError, SystemOverview } from '../../../electron/core/api/contract.ts';
import type { ApiClient } from '../api/client.ts';

export interface SystemState {
  overview: SystemOverview | null;
  loading: boolean;
  error: ApiError | null;
  load(): Promise<void>;
  /** Electron's folder dialog; null when cancelled or not available (browser mode). */
  pickFolder(): Promise<string | null>;
}

export function createSystemStore(client: ApiClient) {
  return createStore<SystemState>()((set) => ({
    overview: null,
    loading: false,
    error: null,
    async load() {
      set({ loading: true });
      const result = await client.call('system.overview', {});
      set(result.ok ? { overview: result.data, error: null, loading: false } : { error: result.error, loading: false });
    },
    async pickFolder() {
      const result = await client.call('dialog.pickFolder', {});
      return result.ok ? result.data.path : null;
    },
  }));
}
