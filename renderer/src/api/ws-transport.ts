// Browser mode: the API over a WebSocket to the page's own server, authenticated by the
// token the page was opened with (?token=…). Requests made before the socket first opens wait.
// A lost connection fails every call at once with what to do (none waits for an answer that
// cannot come), and the client keeps trying the same address: a server back on the same port
// that takes the token is reconnected to; one that refuses it (a new `diskdelta serve` prints a
// new token) makes the state 'stale', which the page names.
import type { ApiResult, EventName, ServerMessage } from '../../../electron/shared/contract/contract.ts';
import type { ApiClient } from './client.ts';
import { transportError } from './client.ts';

type Listener = (payload: never) => void;

/** 'stale': the server is back on this port but refuses this page's token (it was restarted). */
export type ConnectionState = 'open' | 'closed' | 'stale';

export interface WsClientOptions {
  url: string;
  onConnectionChange?: (state: ConnectionState) => void;
  /** Between attempts to reach the server again; grows to 8× while it stays away. */
  retryMs?: number;
}

/** What a call made while the connection is down answers, at once. */
export const LOST_CONNECTION = 'the connection to diskdelta serve was lost: restart it and open the new address it prints';
export const STALE_TOKEN =
  'diskdelta serve was restarted: the token in this address is from its earlier start (stale). Open the new address it printed';

export function wsUrlFromLocation(location: Location): string | null {
  const token = new URLSearchParams(location.search).get('token');
  if (!token) return null;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/api?token=${encodeURIComponent(token)}`;
}

export function createWsClient(options: WsClientOptions): ApiClient & { close(): void } {
  const pending = new Map<number, (result: ApiResult<unknown>) => void>();
  const listeners = new Map<EventName, Set<Listener>>();
  const retryMs = options.retryMs ?? 1000;
  let nextId = 1;
  let state: ConnectionState | 'connecting' = 'connecting';
  let socket: WebSocket;
  let failedAttempts = 0;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let firstOpen!: () => void;
  let firstFail!: (error: Error) => void;
  const opened = new Promise<void>((resolve, reject) => {
    firstOpen = resolve;
    firstFail = reject;
  });
  opened.catch(() => {});

  const setState = (next: ConnectionState) => {
    if (state === next) return;
    state = next;
    options.onConnectionChange?.(next);
  };

  const connect = () => {
    if (stopped) return; // close() was called while the address was being looked at
    const ws = new WebSocket(options.url);
    socket = ws;
    let wasOpen = false;
    ws.addEventListener('open', () => {
      wasOpen = true;
      failedAttempts = 0;
      setState('open');
      firstOpen();
    });
    ws.addEventListener('error', () => firstFail(new Error('the DiskDelta server refused or dropped the connection')));
    ws.addEventListener('close', () => {
      for (const resolve of pending.values()) resolve(transportError(new Error(LOST_CONNECTION)));
      pending.clear();
      if (stopped) return;
      if (wasOpen || state === 'connecting') setState('closed');
      else failedAttempts++;
      retryTimer = setTimeout(() => void retry(), retryMs * Math.min(8, 2 ** failedAttempts));
    });
    ws.addEventListener('message', (message) => {
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
  };

  // A refused upgrade looks like a closed port to a WebSocket: the page's own address over
  // HTTP tells them apart (403: a server is there and refuses this token).
  const retry = async () => {
    if (stopped) return;
    try {
      const page = new URL(options.url.replace(/^ws/, 'http'));
      page.pathname = '/';
      const response = await fetch(page, { cache: 'no-store' });
      if (response.status === 403) {
        setState('stale');
        return;
      }
    } catch {
      // Nothing listens on the port yet: try again later.
    }
    connect();
  };

  connect();

  const down = (): ApiResult<never> | null =>
    state === 'stale' ? transportError(new Error(STALE_TOKEN)) : state === 'closed' ? transportError(new Error(LOST_CONNECTION)) : null;

  return {
    kind: 'browser',
    async call(procedure, input) {
      // The first connection is waited for; after it, a call on a connection that is down fails now.
      await opened.catch(() => {});
      const refused = down();
      if (refused || socket.readyState !== WebSocket.OPEN) return refused ?? transportError(new Error(LOST_CONNECTION));
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
    close() {
      stopped = true;
      clearTimeout(retryTimer);
      socket.close();
    },
  };
}
