// `diskdelta record [PATH] [--for DURATION] [--trace FILE] [--json] [--no-save] [--db PATH]`: records
// the file accesses on PATH's whole filesystem (fanotify, the worker's `record` verb) for hours or
// days, then keeps the LRU cache curve of the whole trace as a run: "a 256 GB cache would have
// served 97 % of the bytes you read or wrote". Stopped by its time or a signal (systemctl stop,
// Ctrl-C) it ends cleanly; run again with the same trace, it resumes it. Only the fanotify group
// is privileged: as another user than root the helper (polkit) holds it and passes back records.
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseFlags, UsageError, type CliCommand } from '../args.ts';
import { accessRecorderKind, defaultTracePath, type AccessRecorderPlan } from '../../node/bench/kinds/access-recorder.ts';
import { locateHelper } from '../../node/bench/privilege/elevation.ts';
import { BenchError } from '../../node/bench/errors.ts';
import { runWorker } from '../../node/bench/worker-client.ts';
import type { WorkerHello } from '../../node/bench/kinds/kind.ts';
import { describeTarget } from '../../node/system/index.ts';
import { ACCESS_CURVE_TEST, curveOfResult, curveVerdict } from '../../shared/analysis/access-trace.ts';
import { formatDiskSize } from '../../shared/analysis/working-set.ts';
import { exitCodeOf } from '../../shared/model/failures.ts';
import type { RunRecord, Warning } from '../../shared/model/results.ts';
import { notSavedLine, openLibraryToSave, saveMeasured } from '../save-runs.ts';
import { stopOnSignals } from '../signals.ts';
import { writeErr, writeOut } from '../terminal.ts';
import { terminalField } from '../../shared/model/display.ts';

const HELP = `Usage: diskdelta record [PATH] [--for DURATION] [--trace FILE] [--json] [--no-save] [--db PATH]

Records which files are read and written on the whole filesystem of PATH (default: your home
folder) for as long as you let it, then says how big an SSD cache (bcache, lvmcache) would have
served what share of those bytes: the hit ratio an LRU cache of each size would have had over the
recording (a miss-ratio curve), and the distinct bytes touched. Per touch of a file it keeps only
a keyed hash of the file's identity, its allocated bytes and the time: never a path or a name.
It stops after --for, or on SIGTERM/Ctrl-C (what the kernel had queued is still recorded); run it
again with the same trace and it resumes, the curve then covering every session. As root it sees
every file; as anyone else the helper (polkit) records and passes back only the files you may
look up yourself (a hash, size and time each): files in folders closed to you are not seen.
The result is kept in the results library as a run (compare this month's with last month's).
  --for DURATION  stop after this long: 90m, 8h, 9d (default: until stopped)
  --trace FILE    the trace to write or resume (default: beside the library, traces/<PATH>.ndjson)
  --json          machine-readable output (bytes)
  --no-save       do not keep the run in the library
  --db PATH       results library file (default: $DISKDELTA_DB or ~/.local/share/diskdelta/library.sqlite)
`;

/** "90m", "8h", "9d", "45s", "3600" → seconds. */
export function parseSpan(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)?\s*$/i.exec(text);
  const seconds = match ? Number(match[1]) * { s: 1, m: 60, h: 3600, d: 86_400 }[(match[2] ?? 's').toLowerCase() as 's'] : NaN;
  if (!(seconds > 0 && seconds <= 400 * 86_400))
    throw new UsageError(`--for '${text}' is not a recording's length: write e.g. 90m, 8h or 9d (at most 400d)`);
  return seconds;
}

export const recordCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      {
        for: { type: 'string' },
        trace: { type: 'string' },
        json: { type: 'boolean' },
        'no-save': { type: 'boolean' },
        db: { type: 'string' },
      },
      true,
    );
    if (positionals.length > 1) throw new UsageError('record takes one PATH: its whole filesystem is recorded');
    const target = resolve(positionals[0] ?? homedir());
    const seconds = values.for === undefined ? 0 : parseSpan(values.for);
    const trace = resolve(values.trace ?? defaultTracePath(target));
    const { library, failure } = openLibraryToSave('record', values.db, values['no-save'] === true);
    if (failure !== null) {
      writeErr(failure);
      return exitCodeOf('internal');
    }
    const stop = stopOnSignals();
    try {
      const helper = process.getuid?.() === 0 ? null : (await locateHelper()).path;
      const plan: AccessRecorderPlan = accessRecorderKind.planSchema.parse({ target, trace, seconds, mergeMs: 1000, helper });
      mkdirSync(dirname(trace), { recursive: true, mode: 0o700 });
      const context = await describeTarget(target);
      const warnings: Warning[] = [...context.warnings];
      const step = accessRecorderKind.start(plan, { target: context.target, system: context.system, emit: () => {} });
      // Filled from the worker's messages (an object: the callback's assignments stay visible to the checker).
      const seen: { hello: WorkerHello | null; error: { code: string; message: string } | null } = { hello: null, error: null };
      const startedAt = new Date();
      const exit = await runWorker(step.argv!, {
        signal: stop.signal,
        onMessage: (m) => {
          if (m.type === 'hello') seen.hello = m;
          else if (m.type === 'error') seen.error ??= { code: m.code, message: m.message };
          else if (m.type === 'warning') warnings.push({ code: m.code, message: m.message });
          else if (m.type === 'record-start' && !values.json)
            writeErr(
              `recording ${terminalField(target)}'s filesystem into ${terminalField(trace)}${m.resumed ? ' (resumed)' : ''}; stop with Ctrl-C or SIGTERM\n`,
            );
          else step.read(m);
        },
      });
      if (exit.code !== 0)
        throw BenchError.fromWorker(
          seen.error?.code,
          seen.error?.message ?? `the recorder exited with ${exit.code ?? exit.signal}`,
          exit.code,
        );
      const results = step.results(seen.hello);
      const record: RunRecord = {
        label: `file accesses on ${target}'s filesystem`,
        notes: '',
        createdAt: startedAt.toISOString(),
        source: 'measured',
        sourceFormat: 'diskdelta',
        sourceMeta: { finishedAt: new Date().toISOString(), trace },
        target: { ...context.target, path: target },
        system: context.system,
        settings: {},
        engine: { name: 'diskdelta', version: seen.hello?.version ?? 'unknown', ioEngine: 'fanotify' },
        results,
        extras: [],
        // The run's warnings are the recorder's; the curve's own (unsized, lost) sit on its result.
        warnings: warnings.filter((w) => !results.some((r) => r.warnings.some((x) => x.code === w.code))),
      };
      const outcome = await saveMeasured(library, [record]);
      const kept = results[0] ? curveOfResult(results[0]) : null;
      if (values.json)
        writeOut(
          `${JSON.stringify({ id: record.id ?? null, target, trace, test: ACCESS_CURVE_TEST, curve: kept, warnings: [...record.warnings, ...(results[0]?.warnings ?? [])] }, null, 2)}\n`,
        );
      else writeOut(kept ? `${curveVerdict(kept, formatDiskSize)}\n` : 'Nothing was recorded.\n');
      if (outcome === null || outcome.saved) return 0;
      writeErr(notSavedLine('record', outcome));
      return exitCodeOf('not-saved');
    } catch (e) {
      if (e instanceof BenchError) {
        writeErr(`diskdelta record: ${terminalField(e.message)}\n`);
        return e.exitCode;
      }
      throw e;
    } finally {
      library?.close();
      stop.release();
    }
  },
};
