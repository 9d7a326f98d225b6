// The shape of what the Electron preload exposes to the renderer as `window.diskdelta`:
// one named verb per procedure of the contract and a typed event subscription. Derived from
// the contract, never written by hand; no ipcRenderer, no event objects cross the bridge.
import type { ApiResult, EventName, EventPayload, ProcedureInput, ProcedureName, ProcedureOutput } from './contract.ts';

export type BridgeVerbs = {
  [P in ProcedureName]: (input: ProcedureInput<P>) => Promise<ApiResult<ProcedureOutput<P>>>;
};

export interface DiskDeltaBridge {
  readonly transport: 'electron-ipc';
  readonly verbs: BridgeVerbs;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}
