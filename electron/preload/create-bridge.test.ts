import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createBridge, type IpcRendererLike } from './create-bridge.ts';
import { EVENT_NAMES, PROCEDURE_NAMES, ipcChannel } from '../shared/contract/contract.ts';

function fakeIpc() {
  const invoked: Array<[string, unknown[]]> = [];
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const ipc: IpcRendererLike = {
    async invoke(channel, ...args) {
      invoked.push([channel, args]);
      return { ok: true, data: [] };
    },
    on(channel, listener) {
      (listeners.get(channel) ?? listeners.set(channel, new Set()).get(channel)!).add(listener);
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };
  return { ipc, invoked, listeners };
}

test('the bridge has one named verb per procedure and nothing that reaches IPC directly', async () => {
  const { ipc, invoked } = fakeIpc();
  const bridge = createBridge(ipc);
  assert.deepEqual(Object.keys(bridge).sort(), ['on', 'transport', 'verbs']);
  assert.deepEqual(Object.keys(bridge.verbs).sort(), [...PROCEDURE_NAMES].sort());
  assert.ok(Object.isFrozen(bridge) && Object.isFrozen(bridge.verbs));
  assert.deepEqual(await bridge.verbs['runs.active']({}), { ok: true, data: [] });
  assert.deepEqual(invoked, [[ipcChannel('invoke', 'runs.active'), [{}]]]);
});

test('event listeners get the payload only, never the IPC event; unknown events are refused', () => {
  const { ipc, listeners } = fakeIpc();
  const bridge = createBridge(ipc);
  const got: unknown[][] = [];
  const off = bridge.on('run.warning', (...args: unknown[]) => got.push(args));
  const channel = ipcChannel('event', 'run.warning');
  for (const l of listeners.get(channel)!) l({ sender: 'secret' }, { runId: 'r', code: 'c', message: 'm' });
  assert.deepEqual(got, [[{ runId: 'r', code: 'c', message: 'm' }]]);
  off();
  assert.equal(listeners.get(channel)!.size, 0);
  assert.throws(() => bridge.on('ipc.raw' as never, () => {}), /unknown event/);
  assert.ok(EVENT_NAMES.length > 0);
});
