// Electron: the preload's named verbs (window.diskdelta). The renderer has no ipcRenderer.
import type { DiskDeltaBridge } from '../../../electron/shared/contract/bridge.ts';
import type { ApiClient } from './client.ts';
import { transportError } from './client.ts';

export function createIpcClient(bridge: DiskDeltaBridge): ApiClient {
  return {
    kind: 'electron',
    async call(procedure, input) {
      const verb = bridge.verbs[procedure] as (input: unknown) => Promise<never>;
      try {
        return await verb(input);
      } catch (error) {
        return transportError(error);
      }
    },
    on(event, listener) {
      return bridge.on(event, listener);
    },
  };
}
