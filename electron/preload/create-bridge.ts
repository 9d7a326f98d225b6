// Builds what the preload exposes as `window.diskdelta`: one named verb per procedure and a
// typed event subscription, all derived from the contract. The renderer gets functions only:
// never ipcRenderer, never the IPC event object (which would leak `sender`).
import { EVENT_NAMES, PROCEDURE_NAMES, ipcChannel, isEventName, type EventName } from '../shared/contract/contract-names.ts';
import type { BridgeVerbs, DiskDeltaBridge } from '../shared/contract/bridge.ts';

/** The part of ipcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function createBridge(ipc: IpcRendererLike): DiskDeltaBridge {
  const verbs = Object.fromEntries(
    PROCEDURE_NAMES.map((name) => [name, (input: unknown) => ipc.invoke(ipcChannel('invoke', name), input)]),
  ) as unknown as BridgeVerbs;
  return Object.freeze({
    transport: 'electron-ipc' as const,
    verbs: Object.freeze(verbs),
    on(event: EventName, listener: (payload: never) => void) {
      if (!isEventName(event)) throw new Error(`unknown event '${String(event)}'; known: ${EVENT_NAMES.join(', ')}`);
      const wrapped = (_event: unknown, payload: unknown) => listener(payload as never);
      ipc.on(ipcChannel('event', event), wrapped);
      return () => {
        ipc.removeListener(ipcChannel('event', event), wrapped);
      };
    },
  }) as DiskDeltaBridge;
}
