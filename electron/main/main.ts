// The Electron main process: thin glue around the Electron-free core. One sandboxed window,
// the contract's procedures over IPC, events pushed to the window, runs stopped on quit.
import { app, BrowserWindow, dialog, ipcMain, session, shell } from 'electron';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { openBackend, type OpenBackend } from '../node/api/backend.ts';
import { createCoalescer } from '../node/api/events.ts';
import { createHandlers } from '../node/api/handlers.ts';
import { eventSender, registerIpc, type IpcEventLike } from './ipc-bridge.ts';
import { electronPrinter } from './report-printer.ts';
import { renderReportHtmlLazily } from '../shared/report/report-html-lazy.ts';
import { terminalText } from '../shared/model/display.ts';

// This file is bundled to dist/electron/main.cjs (scripts/build-electron.ts); paths are
// relative to that bundle, or to the packaged app's resources.
const BUNDLE_DIR = __dirname;
const APP_ROOT = join(BUNDLE_DIR, '..', '..');
const RENDERER_INDEX = join(APP_ROOT, 'dist', 'renderer', 'index.html');
const INDEX_URL = pathToFileURL(RENDERER_INDEX).href;
const PRELOAD = join(BUNDLE_DIR, 'preload.cjs');
// Packaged, the desktop entry names the icon (electron-builder installs assets/icons).
const DEV_ICON = join(APP_ROOT, 'assets', 'icons', '512x512.png');

// The worker and the reference runs: shipped as extra resources when packaged (electron-builder.yml).
if (app.isPackaged) process.env.DISKDELTA_WORKER ??= join(process.resourcesPath, 'diskdelta-worker');
// The privileged helper: the .deb installs a policy naming it; an AppImage can only offer this
// copy to pkexec's generic action (node/bench/privilege/elevation.ts).
if (app.isPackaged) process.env.DISKDELTA_BUNDLED_HELPER ??= join(process.resourcesPath, 'diskdelta-helper');
else process.env.DISKDELTA_WORKER ??= join(APP_ROOT, 'native', 'build', 'diskdelta-worker');
const REFERENCE_DIR = app.isPackaged ? join(process.resourcesPath, 'reference') : join(APP_ROOT, 'assets', 'reference');

let win: BrowserWindow | null = null;
let backend: OpenBackend | null = null;
let quitting = false;

/**
 * Whether a URL is our page (any route: the hash). Compared as paths, not strings: Chromium
 * writes a file URL its own way (which characters it escapes), so a checkout under a folder
 * with `%`, `[`, `]` or `|` in its name would otherwise refuse every call of its own window.
 */
function isOwnPage(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'file:' || parsed.host !== '') return false;
  try {
    return fileURLToPath(parsed) === RENDERER_INDEX;
  } catch {
    return false;
  }
}

/** Says why the app cannot go on, in a box a person sees (there may be no terminal), and ends it. */
function failToStart(error: unknown): void {
  const reason = error instanceof Error ? error.message : String(error);
  console.error(`diskdelta: could not start: ${terminalText(reason)}`);
  dialog.showErrorBox('DiskDelta could not start', reason);
  app.exit(1);
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
    ...(app.isPackaged ? {} : { icon: DEV_ICON }),
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
  // loadURL of the very URL isOwnPage accepts (loadFile builds its own). A page that does not
  // load leaves a hidden window that never shows: say so and end instead.
  window
    .loadURL(INDEX_URL)
    .catch((error: unknown) =>
      failToStart(
        new Error(
          `the app's page ${RENDERER_INDEX} did not load (${error instanceof Error ? error.message : String(error)}); \`npm start\` rebuilds it`,
        ),
      ),
    );
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
  // One catch for both: a start() that rejects (a library it cannot open) must end the
  // process, not leave it running with no window (Electron only warns on a rejection).
  app.whenReady().then(start).catch(failToStart);
}
