// The worker thread of an import (import-worker.ts): decodes, parses and saves one file with
// its own connection to the library, so the main thread, which answers every other client of
// the app or of browser mode, never waits on a 40 MB parse or 200,000 inserts.
import { parentPort, workerData } from 'node:worker_threads';
import { asShippedReferences, decodeImportBytes, ImportError, loadReferenceRuns, parseImport } from '../formats/index.ts';
import { importItems, importSummary, LibraryError, openLibrary } from '../store/library.ts';
import type { ImportWorkerData, ImportWorkerMessage } from './import-worker.ts';

const port = parentPort;
if (!port) throw new Error('import-worker-main.ts runs as a worker thread only');
const send = (message: ImportWorkerMessage) => port.postMessage(message);
const data = workerData as ImportWorkerData;

try {
  send({ type: 'progress', phase: 'parsing' });
  const bytes = new Uint8Array(data.bytes);
  const parsed = parseImport(decodeImportBytes(bytes, data.fileName), data.fileName);
  const shipped = await loadReferenceRuns(data.referenceDir).catch(() => []);
  const records = asShippedReferences(parsed, shipped);
  send({ type: 'progress', phase: 'saving', runs: records.length });
  const library = openLibrary({ dbPath: data.dbPath });
  try {
    send({ type: 'done', ...importSummary(library.importRuns(importItems(records, bytes))), warnings: records.flatMap((r) => r.warnings) });
  } finally {
    library.close();
  }
} catch (error) {
  const kind = error instanceof ImportError ? 'import' : error instanceof LibraryError ? 'library' : 'internal';
  send({ type: 'failed', kind, message: error instanceof Error ? error.message : String(error) });
}
