// Builds the Backend (handlers.ts) from the real core modules. Each module is adapted here to
// the port the handlers use; a module that is not in this build leaves its port null with a
// reason, and its procedures answer UNAVAILABLE.
import type { Backend } from './handlers.ts';
import type { EventSink } from './events.ts';
import { openLibrary, resolveDbPath } from '../store/library.ts';
import { systemPort } from './system-port.ts';
import { runBenchmark } from '../bench/orchestrator.ts';
import { RunManager } from './run-manager.ts';
import { formatsPort } from './formats-port.ts';

export interface BackendOptions {
  /** The library file; default: resolveDbPath() of the store. */
  dbPath?: string;
  /** The shipped reference runs; default: assets/reference next to the sources. */
  referenceDir?: string;
  emit: EventSink;
}

export interface OpenBackend extends Backend {
  close(): Promise<void>;
}

export async function openBackend(options: BackendOptions): Promise<OpenBackend> {
  const library = openLibrary({ dbPath: resolveDbPath(options.dbPath) });
  const backend: Backend = {
    library,
    formats: formatsPort(options.referenceDir),
    system: systemPort,
    runs: new RunManager({
      runBenchmark,
      save: (record) => library.saveRun(record),
      emit: options.emit,
      diskOf: async (target) => (await systemPort.describeTarget(target)).device?.name ?? null,
    }),
    missing: {},
  };
  return {
    ...backend,
    async close() {
      library.close();
    },
  };
}
