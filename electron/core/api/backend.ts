// Builds the Backend (handlers.ts) from the real core modules. Each module is adapted here to
// the port the handlers use; a module that is not in this build leaves its port null with a
// reason, and its procedures answer UNAVAILABLE.
import type { Backend } from './handlers.ts';
import type { EventSink } from './events.ts';

export interface BackendOptions {
  /** The library file; default: resolveDbPath() of the store. */
  dbPath?: string;
  emit: EventSink;
}

export interface OpenBackend extends Backend {
  close(): Promise<void>;
}

export async function openBackend(_options: BackendOptions): Promise<OpenBackend> {
  const backend: Backend = {
    library: null,
    formats: null,
    system: null,
    runs: null,
    missing: {
      library: 'the results library (issue 4) is not in this build yet',
      formats: 'import/export (issue 4) is not in this build yet',
      system: 'machine description (issue 3) is not in this build yet',
      runs: 'the bench orchestrator (issue 2) is not in this build yet',
    },
  };
  return {
    ...backend,
    async close() {},
  };
}
