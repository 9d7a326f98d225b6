// The built Electron bundles (dist/electron/main.cjs, preload.cjs) loaded under plain Node with a
// stand-in `electron` module (electron-stand-in.ts), since the Electron binary cannot be had on
// these machines: the glue, run as built, against the real backend and a real worker. What the
// stand-in cannot show (Chromium drawing the page, a real sandbox) is electron.spec.ts's, where
// the binary exists.
import '../main/electron-stand-in-hooks.ts';
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { buildElectron } from '../../scripts/build-electron.ts';
import { EVENT_NAMES, PROCEDURE_NAMES, ipcChannel, type ApiResult, type ProcedureName } from '../shared/contract/contract.ts';
import type { DiskDeltaBridge } from '../shared/contract/bridge.ts';
import * as electron from './electron-stand-in.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Its own build folder, two levels down as dist/electron is: build-electron.test.ts rebuilds
// dist/electron in the same fast loop.
const BUILD = 'dist/electron-stand-in-test';
const HOOKS = fileURLToPath(new URL('./electron-stand-in-hooks.ts', import.meta.url));
const require = createRequire(import.meta.url);
const { standIn } = electron;

let scratch = '';
/** A checkout whose path has every character a file URL spells differently. */
let appRoot = '';

before(async () => {
  await buildElectron(BUILD);
  scratch = mkdtempSync(join(tmpdir(), 'dd-main-bundle-'));
  appRoot = join(scratch, 'check out [50%|x] #1');
  mkdirSync(join(appRoot, 'dist'), { recursive: true });
  cpSync(join(ROOT, BUILD), join(appRoot, 'dist', 'electron'), { recursive: true });
  symlinkSync(join(ROOT, 'assets'), join(appRoot, 'assets'));
});

after(() => {
  rmSync(join(ROOT, BUILD), { recursive: true, force: true });
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The preload as Electron runs a sandboxed one: its own context, `require` of 'electron' only. */
function runPreloadSandboxed(): DiskDeltaBridge {
  const code = readFileSync(join(appRoot, 'dist', 'electron', 'preload.cjs'), 'utf8');
  const module = { exports: {} };
  const sandboxRequire = (name: string) => {
    if (name === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require '${name}'`);
  };
  vm.runInNewContext(code, { require: sandboxRequire, module, exports: module.exports });
  return standIn.exposed.get('diskdelta') as DiskDeltaBridge;
}

async function until<T>(what: string, get: () => T | undefined, tries = 6000): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = get();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

test('main.cjs + preload.cjs under a stand-in electron: every channel answers the window, events reach it, strangers are refused', async () => {
  const target = join(scratch, 'target');
  mkdirSync(target);
  process.env.DISKDELTA_DB = join(scratch, 'library.sqlite');
  process.env.DISKDELTA_WORKER = join(ROOT, 'native', 'build', 'diskdelta-worker');
  require(join(appRoot, 'dist', 'electron', 'main.cjs'));

  const win = await until('the window', () => standIn.windows[0]);
  await until('the page to load', () => win.webContents.loadedUrl ?? undefined);
  await until('the window to be shown', () => (win.shown ? true : undefined));
  assert.deepEqual(standIn.errorBoxes, []);
  assert.equal(win.options.show, false, 'shown on ready-to-show, not before');
  assert.deepEqual(
    [...standIn.handlers.keys()].sort(),
    PROCEDURE_NAMES.map((name) => ipcChannel('invoke', name)).sort(),
    'one handler per procedure of the contract, no other',
  );

  // Chromium's spelling of the page's URL, with a route: what senderFrame.url holds.
  const frameUrl = `${new URL(win.webContents.loadedUrl!).href}#/overview`;
  const ownWindow = { sender: { id: win.webContents.id }, senderFrame: { url: frameUrl } };
  standIn.rendererInvoke = (channel, ...args) => standIn.handlers.get(channel)!(ownWindow, ...args) as Promise<unknown>;
  const bridge = runPreloadSandboxed();
  assert.deepEqual(Object.keys(bridge.verbs).sort(), [...PROCEDURE_NAMES].sort());
  const call = async (name: ProcedureName, input: unknown) => {
    const answer = (await (bridge.verbs[name] as (i: unknown) => Promise<unknown>)(input)) as ApiResult<Record<string, unknown>>;
    assert.ok(answer.ok, `${name}: ${JSON.stringify(answer)}`);
    return answer.data;
  };

  // Events: a real (small) run's, sent to the window and handed to the page's listener
  // without the IPC event.
  const heard: unknown[] = [];
  const off = bridge.on('run.finished', (payload) => heard.push(payload));
  const { runId } = (await call('runs.start', { target, preset: 'quick', tests: ['seq1m-q8t1-read'] })) as { runId: string };
  const finished = await until('run.finished sent to the window', () =>
    win.webContents.sent.find((m) => m.channel === ipcChannel('event', 'run.finished')),
  );
  const sentEvents = new Set(win.webContents.sent.map((m) => m.channel));
  assert.ok(sentEvents.has(ipcChannel('event', 'run.progress')), `progress reached the window: ${[...sentEvents].join(', ')}`);
  for (const channel of sentEvents) {
    assert.ok(
      EVENT_NAMES.some((e) => ipcChannel('event', e) === channel),
      `${channel} is a contract event`,
    );
  }
  const payload = finished.args[0] as { runId: string; status: string; recordId: number };
  assert.equal(payload.runId, runId);
  assert.equal(payload.status, 'done', JSON.stringify(payload));
  electron.ipcRenderer.deliver(finished.channel, ...finished.args);
  assert.deepEqual(heard, [payload]);
  off();
  assert.equal(electron.ipcRenderer.listenerCount(finished.channel), 0);

  // Every other procedure, with a real input, through the preload's verbs.
  const id = payload.recordId;
  const references = (await call('references.list', {})) as unknown as Array<{ key: string }>;
  assert.ok(references.length > 0);
  const reference = { kind: 'reference', key: references[0]!.key };
  await call('system.overview', {});
  await call('system.describeTarget', { path: target });
  assert.deepEqual(await call('dialog.pickFolder', {}), { path: null });
  assert.deepEqual(await call('runs.cancel', { runId }), { cancelled: false });
  assert.deepEqual(await call('runs.active', {}), []);
  assert.equal(((await call('library.list', {})) as unknown as unknown[]).length, 1);
  await call('library.get', { id });
  await call('library.relabel', { id, label: 'stand-in' });
  const exported = (await call('library.export', { ids: [id], format: 'json' })) as { content: string };
  const imported = await call('library.import', {
    fileName: 'export.json',
    contentBase64: Buffer.from(exported.content).toString('base64'),
  });
  assert.ok(Array.isArray(imported.ids));
  await call('crypto.ciphers', {});
  await call('compare.load', { runs: [{ kind: 'run', id }, reference] });
  await call('report.render', { runs: [reference], format: 'pdf', paper: 'a4', unit: 'MB' });
  // The desktop app's PDF is laid out as the CLI's: the page's own size, no margins of Electron's.
  assert.deepEqual((standIn.printOptions[0] as { margins?: unknown }).margins, { top: 0, bottom: 0, left: 0, right: 0 });
  assert.deepEqual(await call('library.delete', { id }), { deleted: true });

  // Strangers: another window, or our window showing another page, get nothing.
  const handler = standIn.handlers.get(ipcChannel('invoke', 'library.list'))!;
  for (const stranger of [
    { sender: { id: win.webContents.id + 100 }, senderFrame: { url: frameUrl } },
    { sender: { id: win.webContents.id }, senderFrame: { url: 'https://evil.example/#/overview' } },
    { sender: { id: win.webContents.id }, senderFrame: { url: 'file:///tmp/index.html' } },
    { sender: { id: win.webContents.id }, senderFrame: null },
  ]) {
    const answer = (await handler(stranger, {})) as ApiResult<unknown>;
    assert.equal(answer.ok, false, JSON.stringify(stranger));
    assert.match(JSON.stringify(answer), /refused: the request did not come from the DiskDelta window/);
  }
  // Navigation away from the page is stopped; new windows are denied, https links go to the browser.
  let prevented = false;
  win.webContents.emit('will-navigate', { preventDefault: () => (prevented = true) }, 'https://evil.example/');
  assert.ok(prevented);
  assert.deepEqual(win.webContents.windowOpenHandler!({ url: 'https://example.org/' }), { action: 'deny' });
  assert.deepEqual(electron.shell.opened, ['https://example.org/']);

  // Quitting stops the runs and closes the library, then ends the app.
  electron.app.quit();
  await until('the app to quit', () => (standIn.quitRequested ? true : undefined));
  assert.deepEqual(standIn.errorBoxes, []);
});

/** main.cjs in its own Node process under the stand-in; how it ended and what it printed. */
function runMainAlone(env: NodeJS.ProcessEnv) {
  return spawnSync(process.execPath, ['--import', HOOKS, join(ROOT, BUILD, 'main.cjs')], {
    encoding: 'utf8',
    // A bound for a process that never ends (the defect this checks), not a timing.
    timeout: 180_000,
    env: { ...process.env, DISKDELTA_WORKER: join(ROOT, 'native', 'build', 'diskdelta-worker'), ...env },
  });
}

test('a library that cannot be opened: an error box says why, and the process exits 1', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-main-bundle-bad-db-'));
  try {
    const db = join(dir, 'library.sqlite');
    writeFileSync(db, 'this is not a database, but a file someone else wrote here\n'.repeat(200));
    const r = runMainAlone({ DISKDELTA_DB: db });
    assert.notEqual(r.signal, 'SIGTERM', `still running after 60 s: no window, no exit\n${r.stderr}`);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /\[electron stand-in\] error box: DiskDelta could not start: .+/);
    assert.match(r.stderr, /library\.sqlite/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a page that does not load: an error box names it, and the process exits 1 (no hidden window left)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dd-main-bundle-no-page-'));
  try {
    const r = runMainAlone({ DISKDELTA_DB: join(dir, 'library.sqlite'), ELECTRON_STAND_IN_FAIL_LOAD: '1' });
    assert.notEqual(r.signal, 'SIGTERM', `still running after 60 s with a hidden window\n${r.stderr}`);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /error box: DiskDelta could not start: the app's page .*index\.html did not load \(ERR_FILE_NOT_FOUND/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
