import { test } from 'node:test';
import assert from 'node:assert/strict';
import { registerIpc, type IpcEventLike, type IpcMainLike } from './ipc-bridge.ts';
import { PROCEDURE_NAMES, ipcChannel } from '../shared/contract/contract.ts';
import type { Handlers } from '../node/api/dispatch.ts';

function setup() {
  const calls: string[] = [];
  const handlers = Object.fromEntries(PROCEDURE_NAMES.map((n) => [n, async () => (calls.push(n), [])])) as unknown as Handlers;
  const registered = new Map<string, (event: IpcEventLike, ...args: unknown[]) => Promise<unknown>>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => void registered.set(channel, listener),
    removeHandler: (channel) => void registered.delete(channel),
  };
  const trusted: IpcEventLike = { sender: { id: 1 }, senderFrame: { url: 'file:///app/index.html' } };
  const unregister = registerIpc(ipcMain, handlers, (e) => e.sender.id === 1 && e.senderFrame?.url === 'file:///app/index.html');
  const call = (name: string, event: IpcEventLike, ...args: unknown[]) =>
    registered.get(ipcChannel('invoke', name as never))!(event, ...args);
  return { calls, registered, trusted, unregister, call };
}

test('one channel per procedure, derived from the contract; all removed on unregister', () => {
  const { registered, unregister } = setup();
  assert.deepEqual([...registered.keys()].sort(), PROCEDURE_NAMES.map((n) => ipcChannel('invoke', n)).sort());
  unregister();
  assert.equal(registered.size, 0);
});

test('an untrusted sender, a wrong argument count or bad input never reach the handler', async () => {
  const { calls, trusted, call } = setup();
  const other = await call('runs.active', { sender: { id: 2 }, senderFrame: { url: 'file:///app/index.html' } }, {});
  assert.equal((other as any).error.code, 'BAD_MESSAGE');
  const frame = await call('runs.active', { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/' } }, {});
  assert.equal((frame as any).error.code, 'BAD_MESSAGE');
  assert.equal(((await call('runs.active', trusted, {}, 'extra')) as any).error.code, 'BAD_MESSAGE');
  assert.equal(((await call('library.get', trusted, { id: 'x' })) as any).error.code, 'BAD_INPUT');
  assert.deepEqual(calls, []);
  assert.deepEqual(await call('runs.active', trusted, {}), { ok: true, data: [] });
  assert.deepEqual(calls, ['runs.active']);
});
