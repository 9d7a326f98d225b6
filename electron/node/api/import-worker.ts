// `library.import` off the main thread. A fio file of 200,000 jobs is 40 MB: parsing and
// saving it takes seconds, and done on the main thread it left every other request of browser
// mode (another tab's `runs.active`) unanswered for that long (#23 item 6). Each import gets a
// worker thread (import-worker-main.ts) that parses and saves with its own connection to the
// library file; SQLite's WAL lets the main connection read meanwhile, and a write of its own
// waits on the busy timeout. The phases are said as `import.progress` events.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Warning } from '../../shared/model/results.ts';
import { ApiFailure } from './dispatch.ts';
import type { EventSink } from './events.ts';

export interface ImportWorkerData {
  fileName: string;
  bytes: ArrayBuffer;
  dbPath: string;
  referenceDir: string | undefined;
}

export type ImportWorkerMessage =
  | { type: 'progress'; phase: 'parsing' }
  | { type: 'progress'; phase: 'saving'; runs: number }
  | { type: 'done'; ids: number[]; alreadyPresent: ImportOutput['alreadyPresent']; warnings: Warning[] }
  | { type: 'failed'; kind: 'import' | 'library' | 'internal'; message: string };

export interface ImportOutput {
  ids: number[];
  /** Runs the library already kept, and why in words. */
  alreadyPresent: Array<{ id: number; why: string }>;
  warnings: Warning[];
}

export interface Importer {
  importFile(fileName: string, bytes: Uint8Array): Promise<ImportOutput>;
}

const WORKER_URL = new URL('./import-worker-main.ts', import.meta.url);

/**
 * Whether the worker's source is beside this module: true when core runs unbuilt (CLI, browser
 * mode, tests); false in the Electron bundle (dist/electron/main.cjs carries no worker file),
 * where the import stays on the main thread as before.
 */
export function importWorkerAvailable(): boolean {
  try {
    return WORKER_URL.protocol === 'file:' && existsSync(fileURLToPath(WORKER_URL));
  } catch {
    return false;
  }
}

export function workerImporter(options: { dbPath: string; referenceDir?: string; emit: EventSink }): Importer {
  return {
    importFile(fileName, bytes) {
      // A copy the worker owns (transferred, not cloned): the caller's buffer may be a view of a larger one.
      const owned = bytes.slice().buffer;
      const data: ImportWorkerData = { fileName, bytes: owned, dbPath: options.dbPath, referenceDir: options.referenceDir };
      return new Promise<ImportOutput>((resolve, reject) => {
        const worker = new Worker(WORKER_URL, { workerData: data, transferList: [owned] });
        let settled = false;
        const settle = (fn: () => void) => {
          if (settled) return;
          settled = true;
          fn();
        };
        worker.on('message', (message: ImportWorkerMessage) => {
          if (message.type === 'progress') {
            options.emit('import.progress', { fileName, phase: message.phase, runs: message.phase === 'saving' ? message.runs : null });
          } else if (message.type === 'done') {
            settle(() => resolve({ ids: message.ids, alreadyPresent: message.alreadyPresent, warnings: message.warnings }));
          } else {
            const code = message.kind === 'import' ? 'IMPORT_FAILED' : 'FAILED';
            settle(() => reject(message.kind === 'internal' ? new Error(message.message) : new ApiFailure(code, message.message)));
          }
        });
        worker.on('error', (error: Error) => settle(() => reject(error)));
        worker.on('exit', (code) => settle(() => reject(new Error(`the import worker stopped (exit ${code}) before it answered`))));
      });
    },
  };
}
