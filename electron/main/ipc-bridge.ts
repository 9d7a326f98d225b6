// The main-process end of the IPC transport: one ipcMain handler per procedure of the
// contract, each checking the sender before the shared dispatch (which parses the input).
// Events go to the window through channels derived from the contract.
import { PROCEDURE_NAMES, ipcChannel, type ApiResult, type EventName, type EventPayload } from '../shared/contract/contract.ts';
import { failure, invoke, type Handlers } from '../node/api/dispatch.ts';

/** The part of ipcMain the bridge uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

export interface IpcEventLike {
  sender: { id: number };
  senderFrame?: { url: string } | null;
}

/** Only our own window, showing our own page, may call the backend. */
export type SenderCheck = (event: IpcEventLike) => boolean;

export function registerIpc(ipcMain: IpcMainLike, handlers: Handlers, isTrusted: SenderCheck): () => void {
  for (const name of PROCEDURE_NAMES) {
    ipcMain.handle(ipcChannel('invoke', name), async (event, ...args): Promise<ApiResult<unknown>> => {
      if (!isTrusted(event)) return failure('BAD_MESSAGE', 'refused: the request did not come from the DiskDelta window');
      if (args.length !== 1) return failure('BAD_MESSAGE', `${name} takes exactly one argument`);
      return invoke(handlers, name, args[0]);
    });
  }
  return () => {
    for (const name of PROCEDURE_NAMES) ipcMain.removeHandler(ipcChannel('invoke', name));
  };
}

export interface WebContentsLike {
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
}

export function eventSender(getContents: () => WebContentsLike | null) {
  return <E extends EventName>(event: E, payload: EventPayload<E>) => {
    const contents = getContents();
    if (contents && !contents.isDestroyed()) contents.send(ipcChannel('event', event), payload);
  };
}
