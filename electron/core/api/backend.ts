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
import { cryptoPort } from './crypto-port.ts';
import { measureEncryptionCost } from '../crypto/encryption-run.ts';
import { PRESETS } from '../bench/presets.ts';

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
    crypto: cryptoPort(),
    runs: new RunManager({
      runBenchmark,
      save: (record) => library.saveRun(record),
      runEncryption: async (spec, opts) => {
        const preset = PRESETS[spec.preset ?? 'quick'];
        const report = await measureEncryptionCost({
          target: spec.target, mode: spec.encryption ?? 'auto', tests: spec.tests ?? preset.tests,
          sizeBytes: spec.sizeBytes ?? Math.min(preset.sizeBytes, 256 * 1024 * 1024), durationSec: spec.durationSec ?? preset.durationSec,
          runs: spec.runs ?? 1, ...(spec.label ? { label: spec.label } : {}),
        }, opts);
        return [report.raw, report.encrypted];
      },
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
