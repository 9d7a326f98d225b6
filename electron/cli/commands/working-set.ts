// `diskdelta working-set [PATH…] [--ssd SIZE] [--json] [--no-save] [--db PATH]`: how much of the
// data under each folder was read or written within 1, 7, 30, 90 and 365 days (no root; the
// worker's `working-set` verb walks one mount per folder). Each folder is one run in the library,
// so this month's scan compares with last month's (`diskdelta compare`).
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseFlags, parseSize, UsageError, type CliCommand } from '../args.ts';
import { runBenchmark } from '../../node/bench/orchestrator.ts';
import { BenchError } from '../../node/bench/errors.ts';
import { exitCodeOf } from '../../shared/model/failures.ts';
import type { RunRecord } from '../../shared/model/results.ts';
import { summaryOfResult, workingSetVerdict, WORKING_SET_TEST } from '../../shared/analysis/working-set.ts';
import { ProgressBar } from '../progress-bar.ts';
import { notSavedLine, openLibraryToSave, saveMeasured } from '../save-runs.ts';
import { stopOnSignals } from '../signals.ts';
import { writeErr, writeOut } from '../terminal.ts';
import { terminalField } from '../../shared/model/display.ts';
import { workingSetText } from '../working-set-text.ts';

/** The SSDs people weigh hold 1 GB (an old cache drive) to 1 PiB: `--ssd 1B` is a typo, never a drive. */
const SSD_SIZES = { min: 1e9, max: 2 ** 50 };

function parseSsdSize(text: string): number {
  const bytes = parseSize(text, '--ssd');
  if (bytes < SSD_SIZES.min)
    throw new UsageError(`--ssd '${text}' is too small for an SSD: give its size, 1GB to 1PiB, e.g. 120GB, 256GB, 1TB`);
  return bytes;
}

const HELP = `Usage: diskdelta working-set [PATH…] [--ssd SIZE] [--json] [--no-save] [--db PATH]

How big an SSD your data needs: the bytes of the files under each PATH (default: your home
folder) last read or written within 1, 7, 30, 90 and 365 days, the largest folders, and the
verdict in words. No root: it lists folders and reads no file. One filesystem at a time:
other mounts, virtual filesystems and folders you cannot read are named, not walked.
Hard links count once; sizes are the blocks a file allocates (a sparse file's holes are free).
The mount's options decide what the times can show: noatime records no reads (only writes
are seen), relatime a read at most once a day, lazytime writes the times up to a day late.
Each PATH is kept as a run in the results library (compare this month with last).
  --ssd SIZE   the SSD you consider (e.g. 120GB, 256GB, 1TB): the verdict says if it holds the 90-day set
  --json       machine-readable output (bytes)
  --no-save    do not keep the runs in the library
  --db PATH    results library file (default: $DISKDELTA_DB or ~/.local/share/diskdelta/library.sqlite)
`;

function jsonOf(record: RunRecord, ssdBytes: number | undefined) {
  const result = record.results.find((r) => r.test === WORKING_SET_TEST);
  const summary = result ? summaryOfResult(result) : null;
  return {
    id: record.id ?? null,
    target: record.target.path,
    createdAt: record.createdAt,
    summary,
    verdict: summary ? workingSetVerdict(summary, ssdBytes) : null,
    warnings: [...(result?.warnings ?? []), ...record.warnings],
  };
}

export const workingSetCommand: CliCommand = {
  help: HELP,
  async run(argv) {
    const { values, positionals } = parseFlags(
      argv,
      { ssd: { type: 'string' }, json: { type: 'boolean' }, 'no-save': { type: 'boolean' }, db: { type: 'string' } },
      true,
    );
    const ssdBytes = values.ssd === undefined ? undefined : parseSsdSize(values.ssd);
    const targets = (positionals.length ? positionals : [homedir()]).map((p) => resolve(p));
    const json = values.json === true;
    const { library, failure } = openLibraryToSave('working-set', values.db, values['no-save'] === true);
    if (failure !== null) {
      writeErr(failure);
      return exitCodeOf('internal');
    }
    const stop = stopOnSignals();
    const records: RunRecord[] = [];
    const bar = !json && process.stdout.isTTY ? new ProgressBar() : null;
    try {
      for (const target of targets) {
        const record = await runBenchmark(
          { target, tests: [WORKING_SET_TEST], label: `working set of ${target}` },
          {
            signal: stop.signal,
            onEvent: (event) => {
              if (event.type === 'progress') bar?.update(event);
              else if (event.type === 'warning' && (!json || event.code === 'disk-busy')) {
                bar?.clear();
                writeErr(`warning: ${terminalField(event.message)}\n`);
              }
            },
          },
        );
        bar?.clear();
        records.push(record);
      }
      const outcome = await saveMeasured(library, records);
      writeOut(
        json
          ? `${JSON.stringify(
              records.map((r) => jsonOf(r, ssdBytes)),
              null,
              2,
            )}\n`
          : records.map((r) => workingSetText(r, ssdBytes)).join('\n'),
      );
      if (outcome === null || outcome.saved) return 0;
      writeErr(notSavedLine('working-set', outcome));
      return exitCodeOf('not-saved');
    } catch (error) {
      bar?.clear();
      if (error instanceof BenchError) {
        // The folders scanned before the failure are still shown and kept.
        if (records.length) {
          await saveMeasured(library, records);
          writeOut(records.map((r) => workingSetText(r, ssdBytes)).join('\n'));
        }
        writeErr(`diskdelta working-set: ${terminalField(error.message)}\n`);
        return error.exitCode;
      }
      throw error;
    } finally {
      library?.close();
      stop.release();
    }
  },
};
