// Browser mode: the API over a WebSocket to the page's own server, authenticated by the
// token the page was opened with (?token=…). Requests made before the socket is open wait.
import type { ApiResult, EventName, ServerMessage } from '../../../electron/core/api/contract.ts';
import type { ApiClient } from './client.ts';
import { transportError } from './client.ts';

type Listener = (payload: never) => void;

export interface WsClientOptions {
  url: string;
  onConnectionChange?: (state: 'open' | 'closed') => void;
}

export function wsUrlFromLocation(location: Location): string | null {
  const token = new URLSearchParams(location.search).get('token');
  if (!token) return null;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api?token=${encodeURIComponent(token)}`;
}

export function createWsClient(options: WsClientOptions): ApiClient {
  const pending = new Map<number, (result: ApiResult<unknown>) => void>();
  const listeners = new Map<EventName, Set<Listener>>();
  let nextId = 1;
  const socket = new WebSocket(options.url);
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => {
      options.onConnectionChange?.('open');
      resolve();
    });
    socket.addEventListener('error', () => reject(new Error('the DiskDelta server refused or dropped the connection')));
  });
  opened.catch(() => {});

  socket.addEventListener('close', () => {
    options.onConnectionChange?.('closed');
    for (const resolve of pending.values()) resolve(transportError(new Error('the DiskDelta server closed the connection')));
    pending.clear();
  });

  socket.addEventListener('message', (message) => {
    let data: ServerMessage;
    try {
      data = JSON.parse(String(message.data)) as ServerMessage;
    } catch {
      return;
    }
    if (data.type === 'result') {
      pending.get(data.id)?.(data.result);
      pending.delete(data.id);
    } else if (data.type === 'event') {
      for (const listener of listeners.get(data.event) ?? []) listener(data.payload as never);
    } else {
      console.error('DiskDelta server error', data.error);
    }
  });

  return {
    kind: 'browser',
    async call(procedure, input) {
      try {
        await opened;
      } catch (error) {
        return transportError(error);
      }
      const id = nextId++;
      return new Promise((resolve) => {
        pending.set(id, resolve as (result: ApiResult<unknown>) => void);
        socket.send(JSON.stringify({ type: 'invoke', id, procedure, input }));
      });
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(event, set);
      return () => set.delete(listener);
    },
  };
}
