// Spawns the worker, streams its NDJSON messages, and stops it on request: SIGTERM first
// (the worker removes its test file at once), SIGKILL after a grace period.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BenchError } from './errors.ts';
import { createNdjsonReader } from './ndjson-reader.ts';
import type { WorkerMessage } from './worker-protocol.ts';
import { appendTail } from '../../shared/model/stderr-tail.ts';

export const KILL_GRACE_MS = 2000;

/** DISKDELTA_WORKER, else the binary `npm install` builds in native/build. */
export function locateWorker(): string {
  const fromEnv = process.env.DISKDELTA_WORKER;
  const path = fromEnv || fileURLToPath(new URL('../../../native/build/diskdelta-worker', import.meta.url));
  if (!existsSync(path)) {
    throw new BenchError(
      'internal',
      fromEnv
        ? `DISKDELTA_WORKER points to ${path}, which does not exist`
        : `the measuring worker ${path} is not built: run \`npm install\` (it builds native/ with a C compiler; install one with \`apt-get install gcc make\`)`,
    );
  }
  return path;
}

export interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

export interface WorkerRunOptions {
  workerPath?: string;
  signal?: AbortSignal;
  onMessage: (message: WorkerMessage) => void;
  /** Lines that are not valid protocol messages. */
  onInvalid?: (problem: string) => void;
}

/** Runs the worker to the end; resolves with how it exited (the caller reads the messages). */
export function runWorker(argv: string[], options: WorkerRunOptions): Promise<WorkerExit> {
  // DISKDELTA_PARENT_PID: a worker whose parent died before it asked for the death signal stops
  // at once instead of measuring for no one (native/src/child.c).
  const child = spawn(options.workerPath ?? locateWorker(), argv, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DISKDELTA_PARENT_PID: String(process.pid) },
  });
  let stderr = '';
  const reader = createNdjsonReader({ onMessage: options.onMessage, ...(options.onInvalid ? { onInvalid: options.onInvalid } : {}) });
  child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
  child.stdout.on('end', () => reader.end());
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = appendTail(stderr, chunk); // the tail is what explains a failure (model/stderr-tail.ts)
  });

  let killTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    child.kill('SIGTERM');
    killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    killTimer.unref();
  };
  if (options.signal?.aborted) stop();
  else options.signal?.addEventListener('abort', stop, { once: true });

  return new Promise((resolve, reject) => {
    child.on('error', (error) => {
      reject(new BenchError('internal', `cannot start the worker: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', stop);
      resolve({ code, signal, stderr });
    });
  });
}
