// The machine: disks, mounts, suggested targets (Overview page, New run suggestions).
import { createStore } from 'zustand/vanilla';
import type { ApiError, ProcedureOutput, SystemOverview } from '../../../electron/shared/contract/contract.ts';

export type CipherCeilingsView = NonNullable<ProcedureOutput<'crypto.ciphers'>['ceilings']>;
import type { ApiClient } from '../api/client.ts';

export interface SystemState {
  overview: SystemOverview | null;
  loading: boolean;
  error: ApiError | null;
  load(): Promise<void>;
  /** The CPU's cipher ceilings (Overview, Compare's encryption section); null until measured. */
  ciphers: CipherCeilingsView | null;
  ciphersBusy: boolean;
  ciphersError: ApiError | null;
  /** measure: run the worker now (seconds); else fetch the session's last measurement. */
  loadCiphers(measure: boolean): Promise<void>;
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
    ciphers: null,
    ciphersBusy: false,
    ciphersError: null,
    async loadCiphers(measure) {
      set({ ciphersBusy: measure });
      const result = await client.call('crypto.ciphers', measure ? { measure: true } : {});
      set(
        result.ok
          ? { ciphers: result.data.ceilings, ciphersError: null, ciphersBusy: false }
          : { ciphersError: result.error, ciphersBusy: false },
      );
    },
    async pickFolder() {
      const result = await client.call('dialog.pickFolder', {});
      return result.ok ? result.data.path : null;
    },
  }));
}
