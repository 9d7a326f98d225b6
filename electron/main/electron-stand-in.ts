// A stand-in for the `electron` module, so the built bundles (dist/electron/main.cjs and
// preload.cjs) can be loaded under plain Node where the Electron binary cannot be had. It
// implements the part of Electron's API the bundles call, as Electron documents it, and
// records what they did (handlers, windows, messages sent, error boxes) in `standIn` for a
// test to read. It is a stand-in for the glue's surroundings, never for a measurement: the
// backend behind it is the real one.
// electron-stand-in-hooks.ts makes `require('electron')` resolve here.
import { EventEmitter } from 'node:events';
import { format } from 'node:url';

type Listener = (...args: unknown[]) => unknown;

export interface SentMessage {
  channel: string;
  args: unknown[];
}

/** What the bundles did, for the test. */
export const standIn = {
  handlers: new Map<string, Listener>(),
  windows: [] as StandInWindow[],
  errorBoxes: [] as Array<{ title: string; content: string }>,
  exposed: new Map<string, unknown>(),
  printOptions: [] as unknown[],
  quitRequested: false,
  /** Set by the test before the bundle loads: loadURL then rejects as Chromium's does. */
  failLoad: process.env.ELECTRON_STAND_IN_FAIL_LOAD === '1',
  /** What the preload's ipcRenderer.invoke reaches: the test wires it to the main's handlers. */
  rendererInvoke: null as ((channel: string, ...args: unknown[]) => Promise<unknown>) | null,
};

// Electron's main process only warns on an unhandled rejection and goes on (Node would end):
// so must the stand-in, or a start that fails silently in Electron would look handled here.
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`[electron stand-in] unhandled rejection, which Electron only warns about: ${String(reason)}\n`);
});

let nextContentsId = 1;

class StandInWebContents extends EventEmitter {
  readonly id = nextContentsId++;
  readonly sent: SentMessage[] = [];
  loadedUrl: string | null = null;
  destroyed = false;
  windowOpenHandler: Listener | null = null;
  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, ...args: unknown[]): void {
    // Electron serialises with the structured clone algorithm: a payload it cannot clone throws.
    this.sent.push({ channel, args: structuredClone(args) });
  }
  setWindowOpenHandler(handler: Listener): void {
    this.windowOpenHandler = handler;
  }
  async printToPDF(options: unknown): Promise<Buffer> {
    standIn.printOptions.push(options);
    return Buffer.from('%PDF-stand-in: not printed, Electron is not here\n');
  }
}

export class StandInWindow extends EventEmitter {
  readonly webContents = new StandInWebContents();
  shown = false;
  readonly options: Record<string, unknown>;
  constructor(options: Record<string, unknown>) {
    super();
    this.options = options;
    standIn.windows.push(this);
  }
  async loadURL(url: string): Promise<void> {
    if (standIn.failLoad) throw new Error(`ERR_FILE_NOT_FOUND (-6) loading '${url}'`);
    this.webContents.loadedUrl = url;
    // As Electron does once the page has painted.
    setImmediate(() => this.emit('ready-to-show'));
  }
  /** As Electron's loadFile: url.format, which escapes only '#' and '?', then Chromium's spelling. */
  async loadFile(path: string): Promise<void> {
    return this.loadURL(new URL(format({ protocol: 'file', slashes: true, pathname: path })).href);
  }
  show(): void {
    this.shown = true;
  }
  isMinimized(): boolean {
    return false;
  }
  restore(): void {}
  focus(): void {}
  destroy(): void {
    this.webContents.destroyed = true;
    this.emit('closed');
  }
}

class StandInApp extends EventEmitter {
  readonly isPackaged = false;
  private readyResolve!: () => void;
  private readonly ready = new Promise<void>((resolve) => (this.readyResolve = resolve));
  constructor() {
    super();
    setImmediate(() => this.readyResolve());
  }
  whenReady(): Promise<void> {
    return this.ready;
  }
  requestSingleInstanceLock(): boolean {
    return true;
  }
  getVersion(): string {
    return '0.0.0-stand-in';
  }
  /** As Electron's: 'before-quit' may be prevented; otherwise the app ends ('will-quit'). */
  quit(): void {
    const event = {
      defaultPrevented: false,
      preventDefault() {
        event.defaultPrevented = true;
      },
    };
    this.emit('before-quit', event);
    if (event.defaultPrevented) return;
    standIn.quitRequested = true;
    this.emit('will-quit');
  }
  exit(code = 0): never {
    process.exit(code);
  }
}

export const app = new StandInApp();
export const BrowserWindow = StandInWindow;

export const dialog = {
  showErrorBox(title: string, content: string): void {
    standIn.errorBoxes.push({ title, content });
    // Electron prints the box's text on stderr too where no display can show it.
    process.stderr.write(`[electron stand-in] error box: ${title}: ${content}\n`);
  },
  async showOpenDialog(): Promise<{ canceled: boolean; filePaths: string[] }> {
    return { canceled: true, filePaths: [] };
  },
};

export const ipcMain = {
  handle(channel: string, listener: Listener): void {
    // Electron refuses a second handler for one channel.
    if (standIn.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    standIn.handlers.set(channel, listener);
  },
  removeHandler(channel: string): void {
    standIn.handlers.delete(channel);
  },
};

export const session = {
  defaultSession: {
    permissionRequestHandler: null as Listener | null,
    setPermissionRequestHandler(handler: Listener): void {
      this.permissionRequestHandler = handler;
    },
  },
};

export const shell = {
  opened: [] as string[],
  async openExternal(url: string): Promise<void> {
    shell.opened.push(url);
  },
};

export const contextBridge = {
  exposeInMainWorld(key: string, api: unknown): void {
    standIn.exposed.set(key, api);
  },
};

const rendererEmitter = new EventEmitter();
export const ipcRenderer = {
  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    if (!standIn.rendererInvoke) return Promise.reject(new Error(`No handler registered for '${channel}'`));
    return standIn.rendererInvoke(channel, ...args);
  },
  on(channel: string, listener: Listener) {
    rendererEmitter.on(channel, listener);
    return ipcRenderer;
  },
  removeListener(channel: string, listener: Listener) {
    rendererEmitter.off(channel, listener);
    return ipcRenderer;
  },
  /** What Electron does when the main process sends to this window: the listener gets (event, ...args). */
  deliver(channel: string, ...args: unknown[]): void {
    rendererEmitter.emit(channel, { sender: 'ipc-renderer-event' }, ...args);
  },
  listenerCount(channel: string): number {
    return rendererEmitter.listenerCount(channel);
  },
};
