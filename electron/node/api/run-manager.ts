// The app's runs: at most one per device at a time (two benchmarks on one disk would measure
// each other), each cancellable, all stopped on quit. The orchestrator does the spawning and
// the worker's SIGTERM; this module owns the bookkeeping and the waiting.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { BenchEvent, BenchSpec } from '../../shared/model/spec.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { BenchError } from '../bench/errors.ts';
import { specMeasuresDisk } from '../bench/kinds/index.ts';
import { ApiFailure } from './dispatch.ts';
import type { EventSink, Sample, SampleSink } from './events.ts';
import type { EventPayload } from '../../shared/contract/contract.ts';
import { whereKeptText } from '../store/unsaved.ts';
import { saveMeasuredRuns, type MeasuredRunStore } from '../store/save-measured.ts';
import type { RootOptions } from '../system/sysfs.ts';

export type RunBenchmark = (
  spec: BenchSpec,
  opts: { onEvent?: (e: BenchEvent) => void; signal?: AbortSignal; readonly keepFinished?: boolean },
) => Promise<RunRecord>;

export interface RunManagerDeps {
  runBenchmark: RunBenchmark;
  /** Where finished runs are saved, through the one save path (store/save-measured.ts) the CLI's runs take too. */
  library: MeasuredRunStore;
  /**
   * Where a run goes when the library refuses it: returns the file it was written to. Default:
   * a file beside the library (store/unsaved.ts); the measurement is never dropped.
   */
  keepUnsaved?: (record: RunRecord) => Promise<string>;
  /** Where the write counters are read after a save (a fixture's root in tests); default: /proc. */
  writeCounters?: RootOptions;
  emit: EventSink;
  /** Each live sample of a run, batched by the coalescer (events.ts) into 'run.samples'. */
  sample: SampleSink;
  /** A spec with `encryption`: the raw and the dm-crypt run (both saved), instead of one run. */
  runEncryption?: (spec: BenchSpec, opts: { onEvent?: (e: BenchEvent) => void; signal?: AbortSignal }) => Promise<RunRecord[]>;
  /**
   * The disk under a target (system/'s storage stack), so that a folder and a loop device
   * on the same disk count as one device. Without it, or when unknown, st_dev decides.
   */
  diskOf?: (target: string) => Promise<string | null>;
  /**
   * Where a line for the operator goes (a bug seen while a run goes on): `serve` passes its
   * escaping writer, the app its log. Core writes to no terminal itself.
   */
  log?: (line: string) => void;
}

/**
 * What a run has told so far, kept for a tab that opens (or reloads) during it: `runs.active`
 * hands it over, so that tab shows the tests before it and their samples, not just what comes next.
 */
interface RunSoFar {
  progress: Omit<EventPayload<'run.progress'>, 'runId'> | null;
  tests: string[];
  samples: Sample[];
  warnings: Array<{ code: string; message: string }>;
}

/** As many samples as the Live chart keeps (renderer/src/stores/runs.ts MAX_LIVE_SAMPLES). */
export const MAX_SNAPSHOT_SAMPLES = 3000;

interface ActiveRun {
  runId: string;
  spec: BenchSpec;
  device: string;
  /** Times the disk (kinds' measuresDisk): only such runs exclude each other on one disk. */
  measuring: boolean;
  startedAt: string;
  controller: AbortController;
  /** Set by a Stop that keeps the finished tests (#40 item 6): read by the orchestrator when it stops. */
  keepFinished: boolean;
  done: Promise<void>;
  soFar: RunSoFar;
}

/** The device a target lives on: st_dev of a folder, st_rdev of a block device. */
export async function deviceKey(target: string): Promise<string> {
  let info;
  try {
    info = await stat(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    const cause =
      code === 'EACCES' || code === 'EPERM' ? 'permission' : code === 'ENOENT' || code === 'ENOTDIR' ? 'target-missing' : 'target-unusable';
    throw new ApiFailure('BAD_INPUT', `target '${target}' cannot be used (${code}): choose an existing folder or block device`, cause);
  }
  if (info.isBlockDevice()) return `dev:${info.rdev}`;
  if (info.isDirectory()) return `dev:${info.dev}`;
  throw new ApiFailure('BAD_INPUT', `target '${target}' is neither a folder nor a block device`, 'target-not-folder');
}

function isCancelled(error: unknown): boolean {
  return error instanceof BenchError && error.code === 'interrupted';
}

export class RunManager {
  readonly #deps: RunManagerDeps;
  readonly #active = new Map<string, ActiveRun>();

  constructor(deps: RunManagerDeps) {
    this.#deps = deps;
  }

  async start(spec: BenchSpec): Promise<{ runId: string }> {
    const fallback = await deviceKey(spec.target);
    const disk = await this.#deps.diskOf?.(spec.target).catch(() => null);
    const device = disk ? `disk:${disk}` : fallback;
    // One measuring run per disk; a run that times nothing (a scan) is no obstacle, nor held up.
    const measuring = specMeasuresDisk(spec);
    for (const run of this.#active.values()) {
      if (measuring && run.measuring && run.device === device) {
        throw new ApiFailure('BUSY', `a run is already measuring the device under '${run.spec.target}': wait for it or cancel it`);
      }
    }
    const runId = randomUUID();
    const controller = new AbortController();
    const entry: ActiveRun = {
      runId,
      spec,
      device,
      measuring,
      startedAt: new Date().toISOString(),
      controller,
      keepFinished: false,
      done: Promise.resolve(),
      soFar: { progress: null, tests: [], samples: [], warnings: [] },
    };
    this.#active.set(runId, entry);
    entry.done = this.#execute(entry).finally(() => this.#active.delete(runId));
    return { runId };
  }

  async #execute(entry: ActiveRun): Promise<void> {
    const { emit, runBenchmark, runEncryption, library, keepUnsaved, writeCounters } = this.#deps;
    const { runId } = entry;
    const onEvent = (e: BenchEvent) => {
      // An event the contract refuses is a bug to see in the log, not a reason to abort the
      // measurement that produced it.
      try {
        forward(e);
      } catch (error) {
        this.#deps.log?.(`dropped a ${e.type} event of run ${runId}: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
    const soFar = entry.soFar;
    const forward = (e: BenchEvent) => {
      if (e.type === 'progress') {
        const { type: _t, ...rest } = e;
        emit('run.progress', { runId, ...rest });
        soFar.progress = rest;
        if (rest.test && !soFar.tests.includes(rest.test)) soFar.tests.push(rest.test);
      } else if (e.type === 'sample') {
        const { type: _t, ...sample } = e;
        this.#deps.sample(runId, sample);
        soFar.samples.push(sample);
        if (soFar.samples.length > MAX_SNAPSHOT_SAMPLES * 1.5) soFar.samples.splice(0, soFar.samples.length - MAX_SNAPSHOT_SAMPLES);
      } else {
        emit('run.warning', { runId, code: e.code, message: e.message });
        soFar.warnings.push({ code: e.code, message: e.message });
      }
    };
    try {
      // keepFinished is read when the stop arrives, so a getter: cancel() decides it, not start().
      const opts = {
        onEvent,
        signal: entry.controller.signal,
        get keepFinished() {
          return entry.keepFinished;
        },
      };
      let records: RunRecord[];
      if (entry.spec.encryption) {
        if (!runEncryption) throw new Error('measuring the cost of encryption is not available in this build');
        records = await runEncryption(entry.spec, opts);
      } else {
        const record = await runBenchmark(entry.spec, opts);
        if (entry.spec.label && !record.label) record.label = entry.spec.label;
        records = [record];
      }
      // Each record is saved, or kept in a file when the library cannot take it, and the write
      // volume sampled: the one path the CLI saves through too (store/save-measured.ts).
      const outcome = await saveMeasuredRuns(library, records, {
        ...(keepUnsaved ? { keep: keepUnsaved } : {}),
        ...(writeCounters ? { counters: writeCounters } : {}),
      });
      if (!outcome.saved) {
        const how = (paths: string[]) => `import ${paths.length > 1 ? 'those files' : 'that file'} (Import, or diskdelta import FILE)`;
        const message = `the run was measured but the library could not save it (${outcome.reason}); ${whereKeptText(outcome, how)}`;
        emit('run.finished', { runId, status: 'failed', recordId: null, error: { code: 'FAILED', message, failure: 'not-saved' } });
        return;
      }
      const recordId = outcome.ids.at(-1) ?? 0;
      emit('run.finished', { runId, status: 'done', recordId, error: null });
    } catch (error) {
      if (isCancelled(error) || entry.controller.signal.aborted) {
        emit('run.finished', {
          runId,
          status: 'cancelled',
          recordId: null,
          error: { code: 'CANCELLED', message: 'the run was cancelled' },
        });
      } else {
        const message = error instanceof Error ? error.message : String(error);
        // The failure's code travels with the message, so the page can offer what to do.
        const failure = error instanceof BenchError ? error.code : 'internal';
        emit('run.finished', { runId, status: 'failed', recordId: null, error: { code: 'FAILED', message, failure } });
      }
    }
  }

  /** The runs going on, each with what it has told so far (RunSoFar). */
  list() {
    return [...this.#active.values()].map(({ runId, spec, device, startedAt, soFar }) => ({
      runId,
      spec,
      device,
      startedAt,
      progress: soFar.progress,
      tests: [...soFar.tests],
      samples: soFar.samples.slice(-MAX_SNAPSHOT_SAMPLES),
      warnings: [...soFar.warnings],
    }));
  }

  /**
   * Asks the run to stop; resolves once it has (the orchestrator removes the test file).
   * keepFinished: the tests that had finished are saved, the run marked as cut short (as
   * `diskdelta run --keep-finished`); without any finished, it is cancelled whole.
   */
  async cancel(runId: string, keepFinished = false): Promise<{ cancelled: boolean }> {
    const run = this.#active.get(runId);
    if (!run) return { cancelled: false };
    run.keepFinished = keepFinished;
    run.controller.abort();
    await run.done;
    return { cancelled: true };
  }

  /** On quit: cancel everything and wait (bounded) for the workers to clean up. */
  async stopAll(graceMs = 3000): Promise<void> {
    const runs = [...this.#active.values()];
    for (const run of runs) run.controller.abort();
    const all = Promise.all(runs.map((r) => r.done));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([all, timeout]);
    clearTimeout(timer);
  }
}
