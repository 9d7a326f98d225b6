// The app asks once per device per session: the first run on a device the user cannot read
// starts a `diskdelta-worker hold` (unprivileged) that has the helper open the device through
// pkexec — the one authentication — and then serves the read-only descriptor to this user's
// later runs over a socket in a private folder (`--fd-from`). The holder lives until the app
// closes the session (its stdin) or quits; it never measures anything itself.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Warning } from '../../../shared/model/results.ts';
import { BenchError } from '../errors.ts';
import { locateHelper, type LocateOptions } from './elevation.ts';
import { workerCommand } from '../worker-argv.ts';
import { locateWorker } from '../worker-client.ts';
import { holding } from './holder-lines.ts';

interface Holder {
  child: ChildProcess;
  socket: Promise<string>;
  dir: string;
  /** From choosing the helper (an AppImage's generic action): told with the first run. */
  warnings: Warning[];
}

export interface SessionOptions {
  workerPath?: string;
  helper?: LocateOptions;
}

export class ElevationSessions {
  readonly #holders = new Map<string, Holder>();
  readonly #options: SessionOptions;

  constructor(options: SessionOptions = {}) {
    this.#options = options;
  }

  /**
   * The socket serving `target`'s descriptor; authenticates only when no holder is alive.
   * `warnings` come with the run that started the holder.
   */
  async socketFor(target: string): Promise<{ socket: string; warnings: Warning[] }> {
    const key = String((await stat(target)).rdev);
    const alive = this.#holders.get(key);
    if (alive && alive.child.exitCode === null && alive.child.signalCode === null) return { socket: await alive.socket, warnings: [] };
    const holder = await this.#start(target);
    this.#holders.set(key, holder);
    holder.child.once('close', () => {
      if (this.#holders.get(key) === holder) this.#holders.delete(key);
      void rm(holder.dir, { recursive: true, force: true });
    });
    holder.socket.catch(() => this.#holders.delete(key));
    return { socket: await holder.socket, warnings: holder.warnings };
  }

  /** Devices with a live holder (for tests and the UI). */
  get heldCount(): number {
    return this.#holders.size;
  }

  /** Ends every holder: closing stdin is the normal way; each removes its socket. */
  closeAll(): void {
    for (const holder of this.#holders.values()) holder.child.stdin?.end();
    this.#holders.clear();
  }

  async #start(target: string): Promise<Holder> {
    const helper = await locateHelper(this.#options.helper);
    const dir = await mkdtemp(join(process.env.XDG_RUNTIME_DIR || tmpdir(), 'diskdelta-hold-'));
    const socketPath = join(dir, 'fd.sock');
    const child = spawn(
      this.#options.workerPath ?? locateWorker(),
      workerCommand('hold', { target, helper: helper.path, socket: socketPath }),
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    const socket = holding(
      child,
      (code) => new BenchError('holder-gone', `the descriptor holder for ${target} exited (code ${code}) before opening it`),
    ).then((m) => m.socket);
    return { child, socket, dir, warnings: helper.warnings };
  }
}
