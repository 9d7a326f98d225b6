// Browser mode's client against a real server that stops and comes back on the same port: a
// call on the lost connection answers at once with what to do (it used to wait forever); the
// same server back (same token) is reconnected to; a new launch (new token) is named stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket as NodeWebSocket } from 'ws';
import { createHandlers } from '../../../electron/node/api/handlers.ts';
import { RunManager } from '../../../electron/node/api/run-manager.ts';
import { startServer, type RunningServer } from '../../../electron/server/server.ts';
import { createWsClient, LOST_CONNECTION, STALE_TOKEN, type ConnectionState } from './ws-transport.ts';

test('a stopped server fails calls at once with the advice; back with the same token it is reconnected to, with a new one it is named stale', async (t) => {
  const dist = mkdtempSync(join(tmpdir(), 'dd-ws-reconnect-'));
  t.after(() => rmSync(dist, { recursive: true, force: true }));
  const runs = new RunManager({
    runBenchmark: () => Promise.reject(new Error('no runs here')),
    library: { path: join(dist, 'library.sqlite'), saveRun: () => 0, saveWriteSamples: () => {} },
    emit: () => {},
    sample: () => {},
  });
  const start = (port: number, token: string): Promise<RunningServer> =>
    startServer({
      handlers: createHandlers({ library: null, formats: null, system: null, runs, missing: {} }),
      distDir: dist,
      port,
      token,
    });
  let server = await start(0, 'first-token');
  const { port } = server;
  t.after(() => server.close());

  // The browser's WebSocket sends the page's Origin; Node's does not, so give it one.
  const globals = globalThis as { WebSocket: unknown };
  const previous = globals.WebSocket;
  globals.WebSocket = class extends NodeWebSocket {
    constructor(url: string) {
      super(url, { headers: { origin: `http://127.0.0.1:${port}` } });
    }
  };
  t.after(() => {
    globals.WebSocket = previous;
  });

  const states: ConnectionState[] = [];
  const waiters: Array<[ConnectionState, () => void]> = [];
  const reach = (state: ConnectionState) =>
    new Promise<void>((resolve) => (states.at(-1) === state ? resolve() : waiters.push([state, resolve])));
  const client = createWsClient({
    url: `ws://127.0.0.1:${port}/api?token=first-token`,
    retryMs: 20,
    onConnectionChange: (state) => {
      states.push(state);
      for (const [wanted, resolve] of waiters) if (wanted === state) resolve();
    },
  });
  t.after(() => client.close());

  assert.equal((await client.call('runs.active', {})).ok, true, 'connected');

  await server.close();
  await reach('closed');
  const lost = await client.call('runs.active', {});
  assert.equal(lost.ok, false);
  assert.match(lost.ok ? '' : lost.error.message, new RegExp(LOST_CONNECTION.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));

  server = await start(port, 'first-token');
  await reach('open');
  assert.equal((await client.call('runs.active', {})).ok, true, 'reconnected to the server back on its port with the same token');

  await server.close();
  await reach('closed');
  server = await start(port, 'a-new-launch');
  await reach('stale');
  const stale = await client.call('runs.active', {});
  assert.equal(stale.ok, false);
  assert.ok(!stale.ok && stale.error.message.includes(STALE_TOKEN), stale.ok ? '' : stale.error.message);
  assert.deepEqual(states, ['open', 'closed', 'open', 'closed', 'stale']);
});
