// Builds the Backend (handlers.ts) from the real core modules. Each module is adapted here to
// the port the handlers use; a module that is not in this build leaves its port null with a
// reason, and its procedures answer UNAVAILABLE.
import type { Backend } from './handlers.ts';
import type { EventSink, SampleSink } from './events.ts';
import { openLibrary, resolveDbPath } from '../store/library.ts';
import { systemPort } from './system-port.ts';
import { runBenchmark } from '../bench/orchestrator.ts';
import { needsElevation } from '../bench/privilege/elevation.ts';
import { ElevationSessions } from '../bench/privilege/elevation-session.ts';
import { RunManager } from './run-manager.ts';
import { formatsPort } from './formats-port.ts';
import { importWorkerAvailable, workerImporter } from './import-worker.ts';
import { cryptoPort } from './crypto-port.ts';
import { measureEncryptionCost } from '../crypto/encryption-run.ts';
import { DEFAULT_PRESET, PRESETS } from '../../shared/catalog/presets.ts';
import type { ReportHtml, ReportPrinter } from '../../shared/report/printer.ts';

export interface BackendOptions {
  /** The library file; default: resolveDbPath() of the store. */
  dbPath?: string;
  /** The shipped reference runs; default: assets/reference next to the sources. */
  referenceDir?: string;
  emit: EventSink;
  /** Each live sample of a run: the coalescer's sample() (events.ts), which batches them. */
  sample: SampleSink;
  /** The report view as HTML (electron/shared/report/report-html-lazy.ts); none: no reports. */
  reportHtml?: ReportHtml;
  /** Prints report PDFs; none: 'report.render' answers UNAVAILABLE for PDF (HTML still works). */
  printer?: ReportPrinter;
  appVersion?: string;
  /** Lines for the operator (run-manager.ts): `serve` prints them escaped, the app logs them. */
  log?: (line: string) => void;
}

export interface OpenBackend extends Backend {
  close(): Promise<void>;
}

export async function openBackend(options: BackendOptions): Promise<OpenBackend> {
  const dbPath = resolveDbPath(options.dbPath);
  // readOnly: a library this user may only read, or on a full disk, is still browsed; saving a
  // run then fails with the reason and the run is kept as a file (store/save-measured.ts).
  const library = openLibrary({ dbPath, readOnly: true });
  // A device the user cannot read is opened once per session by a holder (one authentication).
  const sessions = new ElevationSessions();
  const backend: Backend = {
    library,
    formats: formatsPort(options.referenceDir),
    // An in-memory library is this connection's alone: a worker could not reach it.
    importer:
      dbPath === ':memory:' || !importWorkerAvailable()
        ? null
        : workerImporter({ dbPath, referenceDir: options.referenceDir, emit: options.emit }),
    system: systemPort,
    crypto: cryptoPort(undefined, library),
    runs: new RunManager({
      runBenchmark: async (spec, opts) => {
        // The app asks through polkit's own dialog when it must: here that leaves only
        // app-start's page-cache drop to `elevate` (devices go through the session holder).
        if (!(await needsElevation(spec.target))) return runBenchmark({ ...spec, elevate: true }, opts);
        const { socket, warnings } = await sessions.socketFor(spec.target);
        for (const w of warnings) opts.onEvent?.({ type: 'warning', ...w });
        const record = await runBenchmark(spec, { ...opts, fdFrom: socket });
        record.warnings.push(...warnings);
        return record;
      },
      library,
      runEncryption: async (spec, opts) => {
        const preset = PRESETS[spec.preset ?? DEFAULT_PRESET];
        const report = await measureEncryptionCost(
          {
            target: spec.target,
            mode: spec.encryption ?? 'auto',
            tests: spec.tests ?? preset.tests,
            sizeBytes: spec.sizeBytes ?? Math.min(preset.sizeBytes, 256 * 1024 * 1024),
            durationSec: spec.durationSec ?? preset.durationSec,
            runs: spec.runs ?? 1,
            ...(spec.label ? { label: spec.label } : {}),
            // The app asks through polkit's own dialog when it is not root, as for devices.
            elevate: true,
          },
          opts,
        );
        return [report.raw, report.encrypted, ...(report.encryptedWrites ? [report.encryptedWrites] : [])];
      },
      emit: options.emit,
      sample: options.sample,
      diskOf: async (target) => (await systemPort.describeTarget(target)).device?.name ?? null,
      ...(options.log ? { log: options.log } : {}),
    }),
    reportHtml: options.reportHtml ?? null,
    printer: options.printer ?? null,
    appVersion: options.appVersion,
    missing: {
      ...(options.reportHtml ? {} : { reportHtml: 'this build has no report view' }),
      ...(options.printer ? {} : { printer: 'this front end prints no PDF: save the report as HTML' }),
    },
  };
  return {
    ...backend,
    async close() {
      sessions.closeAll();
      library.close();
    },
  };
}
