// The Electron main process: thin glue around the Electron-free core. One sandboxed window,
// the contract's procedures over IPC, events pushed to the window, runs stopped on quit.
import { app, BrowserWindow, dialog, ipcMain, session, shell } from 'electron';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openBackend, type OpenBackend } from '../core/api/backend.ts';
import { createCoalescer } from '../core/api/events.ts';
import { createHandlers } from '../core/api/handlers.ts';
import { eventSender, registerIpc, type IpcEventLike } from './ipc-bridge.ts';
import { electronPrinter } from './report-printer.ts';
import { renderReportHtmlLazily } from '../../renderer/src/report/report-html-lazy.ts';
import { terminalText } from '../core/model/display.ts';

// This file is bundled to dist/electron/main.cjs (scripts/build-electron.ts); paths are
// relative to that bundle, or to the packaged app's resources.
const BUNDLE_DIR = __dirname;
const APP_ROOT = join(BUNDLE_DIR, '..', '..');
const RENDERER_INDEX = join(APP_ROOT, 'dist', 'renderer', 'index.html');
const INDEX_URL = pathToFileURL(RENDERER_INDEX).href;
const PRELOAD = join(BUNDLE_DIR, 'preload.cjs');

// The worker and the reference runs: shipped as extra resources when packaged (electron-builder.yml).
if (app.isPackaged) process.env.DISKDELTA_WORKER ??= join(process.resourcesPath, 'diskdelta-worker');
// The privileged helper: the .deb installs a policy naming it; an AppImage can only offer this
// copy to pkexec's generic action (core/bench/privilege/elevation.ts).
if (app.isPackaged) process.env.DISKDELTA_BUNDLED_HELPER ??= join(process.resourcesPath, 'diskdelta-helper');
else process.env.DISKDELTA_WORKER ??= join(APP_ROOT, 'native', 'build', 'diskdelta-worker');
const REFERENCE_DIR = app.isPackaged ? join(process.resourcesPath, 'reference') : join(APP_ROOT, 'assets', 'reference');

let win: BrowserWindow | null = null;
let backend: OpenBackend | null = null;
let quitting = false;

function isOwnPage(url: string): boolean {
  return url === INDEX_URL || url.startsWith(`${INDEX_URL}#`) || url.startsWith(`${INDEX_URL}?`);
}

function isTrustedSender(event: IpcEventLike): boolean {
  return win !== null && event.sender.id === win.webContents.id && isOwnPage(event.senderFrame?.url ?? '');
}

function createWindow(): BrowserWindow {
  const window = new BrowserWindow({
    width: 1280,
    height: 800,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'DiskDelta',
    webPreferences: {
      preload: PRELOAD,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  // No new windows, no navigation away from our page (a dropped file would otherwise open).
  window.webContents.setWindowOpenHandler(({ url }) => {
    if (/^https:\/\//.test(url)) void shell.openExternal(url);
    return { action: 'deny' };
  });
  window.webContents.on('will-navigate', (event, url) => {
    if (!isOwnPage(url)) event.preventDefault();
  });
  window.webContents.on('will-redirect', (event, url) => {
    if (!isOwnPage(url)) event.preventDefault();
  });
  void window.loadFile(RENDERER_INDEX);
  return window;
}

async function start(): Promise<void> {
  // Nothing in the app needs a permission (camera, notifications …): refuse them all.
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });

  const coalescer = createCoalescer(eventSender(() => win?.webContents ?? null));
  backend = await openBackend({
    emit: coalescer.emit,
    sample: coalescer.sample,
    referenceDir: REFERENCE_DIR,
    reportHtml: renderReportHtmlLazily,
    printer: electronPrinter(),
    appVersion: app.getVersion(),
    log: (line) => console.error(`diskdelta: ${terminalText(line)}`),
  });
  backend.dialogs = {
    async pickFolder() {
      const options = { title: 'Choose the folder to measure', properties: ['openDirectory' as const, 'createDirectory' as const] };
      const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return result.canceled ? null : (result.filePaths[0] ?? null);
    },
  };
  registerIpc(ipcMain, createHandlers(backend), isTrustedSender);
  win = createWindow();
  win.on('closed', () => (win = null));

  app.on('before-quit', (event) => {
    if (quitting || !backend) return;
    // Stop the workers first: each removes its test file on SIGTERM (SIGKILL after a grace
    // period, then the orchestrator's cleanup verb removes the file).
    event.preventDefault();
    quitting = true;
    const open = backend;
    void Promise.resolve(open.runs?.stopAll())
      .finally(() => {
        coalescer.close();
        return open.close();
      })
      .finally(() => app.quit());
  });
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (win) {
      if (win.isMinimized()) win.restore();
      win.focus();
    }
  });
  app.on('window-all-closed', () => app.quit());
  // Stopped from a terminal or by the session: quit the normal way, so workers are stopped
  // and their test files removed (before-quit).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  app.whenReady().then(start, (error: unknown) => {
    dialog.showErrorBox('DiskDelta could not start', String(error));
    app.exit(1);
  });
}
